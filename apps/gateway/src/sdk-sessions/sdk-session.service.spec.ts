import 'reflect-metadata';
import { ConflictException, NotFoundException } from '@nestjs/common';
import type { SdkEnv } from '@platform/config';
import { WebhookDelivery, chatUserId } from '@platform/contracts';
import type { CallbackSettingsRepository, ConversationRepository, SdkSession, SdkSessionRepository } from '@platform/database';
import type { BotInputsService } from '../bots/bot-inputs.service.js';
import type { WebhookDispatcher } from '../callbacks/webhook-dispatcher.service.js';
import { SdkSessionService } from './sdk-session.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const SESSION = '6c1d2a4e-8f7b-4e57-a0a4-2a2f7a9d4c3e';

function setup(
  webhookUrl: string | null = 'https://bot.example.com/hook',
  enqueue: (d: WebhookDelivery) => Promise<void> = async () => undefined,
  hosted: { published: boolean; startFails?: boolean } = { published: false },
  testVersion: number | null = null,
) {
  const rows = new Map<string, SdkSession>();
  const starts: Array<{ botId: string; conversationId: string; payload: Record<string, unknown> }> = [];
  const botInputs = {
    whoAnswers: async (botId: string) => (botId === BOT ? { hosted: hosted.published, webhook: webhookUrl !== null } : null),
    hosted: async () => hosted.published,
    start: async (botId: string, conversationId: string, payload: Record<string, unknown>) => {
      if (hosted.startFails) throw new Error('redis down');
      starts.push({ botId, conversationId, payload });
      return hosted.published;
    },
  } as unknown as BotInputsService;
  const queued: WebhookDelivery[] = [];
  const sessions = {
    create: async (data: Omit<SdkSession, 'id' | 'createdAt' | 'lastSeenAt' | 'deviceToken'> & { deviceToken?: string }) => {
      const row = { id: SESSION, createdAt: new Date(), lastSeenAt: new Date(), deviceToken: null, ...data } as SdkSession;
      rows.set(row.id, row);
      return row;
    },
    findLive: async (botId: string, id: string) => {
      const row = rows.get(id);
      return row && row.botId === botId && row.expiresAt > new Date() ? row : null;
    },
    useLive: async (botId: string, id: string, userId: string, now: Date, expiresAt: Date) => {
      const row = rows.get(id);
      if (!row || row.botId !== botId || row.userId !== userId || row.expiresAt <= now) return null;
      Object.assign(row, { lastSeenAt: now, expiresAt });
      return row;
    },
    delete: async (id: string) => rows.delete(id),
    touch: async () => ({ count: 1 }),
  } as unknown as SdkSessionRepository;
  const webhooks = {
    find: async (botId: string) => (botId === BOT ? { endpoints: webhookUrl ? { webhook: { url: webhookUrl } } : {}, secret: webhookUrl ? { secretEncrypted: 'sealed' } : null } : null),
  } as unknown as CallbackSettingsRepository;
  const dispatcher = { enqueue: async (_bot: string, d: WebhookDelivery) => (queued.push(d), enqueue(d)) } as unknown as WebhookDispatcher;
  const env = { SDK_SESSION_TTL_SECONDS: 60 } as SdkEnv;
  const conversations = { upsert: async () => ({ id: 'c0f5c2a4-1b7e-4d3a-9f00-0c1d2e3f4a5b', testVersion }) } as unknown as ConversationRepository;
  return { service: new SdkSessionService(sessions, webhooks, dispatcher, env, conversations, botInputs), rows, queued, starts };
}

const dto = { authToken: 'user_1', payload: { a: { b: [1, null] } }, version: 2 };

describe('SdkSessionService', () => {
  it('stores only the token hash as the user id and queues session.started with the payload as a JSON string', async () => {
    const { service, rows, queued } = setup();
    const session = await service.start(BOT, dto);
    expect(session.userId).toBe(chatUserId('user_1'));
    expect(JSON.stringify([...rows.values()])).not.toContain('user_1');
    expect(queued).toEqual([
      expect.objectContaining({
        type: 'session.started',
        botId: BOT,
        sessionId: SESSION,
        userId: chatUserId('user_1'),
        payload: '{"a":{"b":[1,null]}}',
        version: 2,
        conversationId: 'c0f5c2a4-1b7e-4d3a-9f00-0c1d2e3f4a5b',
      }),
    ]);
  });

  it('queues nothing for a bot without a webhook, and refuses an unknown bot', async () => {
    const { service, queued } = setup(null);
    await service.start(BOT, dto);
    expect(queued).toEqual([]);
    await expect(service.start('00000000-0000-4000-8000-000000000000', dto)).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.start('not-a-uuid', dto)).rejects.toBeInstanceOf(NotFoundException);
  });

  it("starts no journey and tells no mirror for a builder test's chat page: the test queued its start on the draft", async () => {
    const { service, queued, starts, rows } = setup('https://bot.example.com/hook', undefined, { published: true }, -7);
    const session = await service.start(BOT, dto);
    expect(rows.get(session.id)).toBeDefined();
    expect(starts).toEqual([]);
    expect(queued).toEqual([]);
  });

  it('keeps no session when session.started could not be queued', async () => {
    const { service, rows } = setup(undefined, async () => Promise.reject(new Error('redis down')));
    await expect(service.start(BOT, dto)).rejects.toThrow('redis down');
    expect(rows.size).toBe(0);
  });

  it('checks a chat token against the session, and a request that passes slides its expiry', async () => {
    const { service, rows } = setup();
    await service.start(BOT, dto);
    rows.get(SESSION)!.expiresAt = new Date(Date.now() + 1000);
    expect(await service.check(BOT, SESSION, 'user_1')).toMatchObject({ id: SESSION });
    expect(rows.get(SESSION)!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000); // the TTL is 60 s
    expect(await service.check(BOT, SESSION, 'user_2')).toBe('unauthorized');
    expect(await service.check(BOT, SESSION, 'bad token')).toBe('unauthorized');
    expect(await service.check(BOT, '00000000-0000-4000-8000-000000000000', 'user_1')).toBe('gone');
    expect(await service.check(BOT, 'x', 'user_1')).toBe('gone');
  });

  it('forwards app events with data as a JSON string; 409 without a webhook', async () => {
    const { service, queued } = setup();
    const session = await service.start(BOT, dto);
    const id = await service.sendAppEvent(session, { code: 'cart', data: { n: 1 } });
    expect(queued[1]).toMatchObject({ type: 'app.event', id, code: 'cart', data: '{"n":1}', sessionId: SESSION });
    await service.sendAppEvent(session, { code: 'empty' });
    expect(queued[2]).toMatchObject({ code: 'empty', data: '{}' });
    const none = setup(null);
    const s = await none.service.start(BOT, dto);
    await expect(none.service.sendAppEvent(s, { code: 'x' })).rejects.toBeInstanceOf(ConflictException);
  });

  describe('a hosted bot (a published version)', () => {
    const CONVERSATION = 'c0f5c2a4-1b7e-4d3a-9f00-0c1d2e3f4a5b';

    it('without a webhook: queues a start input in the web conversation with the payload, and no webhook call', async () => {
      const { service, queued, starts } = setup(null, undefined, { published: true });
      await service.start(BOT, dto);
      expect(starts).toEqual([{ botId: BOT, conversationId: CONVERSATION, payload: dto.payload }]);
      expect(queued).toEqual([]);
    });

    it('with a webhook: the start input and the session.started call (the mirror)', async () => {
      const { service, queued, starts } = setup(undefined, undefined, { published: true });
      await service.start(BOT, dto);
      expect(starts).toHaveLength(1);
      expect(queued).toEqual([expect.objectContaining({ type: 'session.started', conversationId: CONVERSATION })]);
    });

    it('keeps no session when the start input could not be queued', async () => {
      const { service, rows, queued } = setup(null, undefined, { published: true, startFails: true });
      await expect(service.start(BOT, dto)).rejects.toThrow('redis down');
      expect(rows.size).toBe(0);
      expect(queued).toEqual([]);
    });

    it('refuses app events with 409 saying hosted bots do not take them yet, unless a webhook is set', async () => {
      const bare = setup(null, undefined, { published: true });
      const session = await bare.service.start(BOT, dto);
      const refusal = bare.service.sendAppEvent(session, { code: 'cart' });
      await expect(refusal).rejects.toBeInstanceOf(ConflictException);
      await expect(refusal).rejects.toThrow('Hosted bots do not take app events yet');
      const mirrored = setup(undefined, undefined, { published: true });
      const s = await mirrored.service.start(BOT, dto);
      await mirrored.service.sendAppEvent(s, { code: 'cart' });
      expect(mirrored.queued[1]).toMatchObject({ type: 'app.event', code: 'cart' });
    });
  });
});
