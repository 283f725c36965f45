import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import type { CarouselDispatchJob, TriggerCarouselDto } from '@platform/contracts';
import { DatabaseUnavailableError, type CarouselCatalog, type ChannelSender, type ChannelSenderRepository, type Template } from '@platform/database';
import { RedisUnavailableError } from '@platform/queue';
import type { CallbackUrlChecker } from '../callbacks/callback-url.checker.js';
import type { PostgresLiveness } from './postgres-liveness.js';
import { CarouselTriggerService } from './carousel-trigger.service.js';
import type { QueuedTrigger, TriggerBatcher } from './trigger-batcher.js';
import { idempotencyClaim } from './trigger-idempotency.js';

const BOT = 'b0000000-0000-4000-8000-000000000001';
const TEMPLATE_ID = 'a0000000-0000-4000-8000-000000000001';
const template = { id: TEMPLATE_ID, botId: BOT, channel: 'whatsapp', cardCount: 2, status: 'APPROVED', bodyParameterCount: 0, cards: null } as unknown as Template;
const sender = { id: 'sender-1', botId: BOT, channel: 'whatsapp', number: '15550001111' } as unknown as ChannelSender;

function dto(overrides: { templateId?: string; sender?: string; number?: string; cards?: TriggerCarouselDto['notification']['params']['cards'] } = {}) {
  return {
    userDetails: { number: overrides.number ?? '+5511999990000' },
    notification: {
      templateId: overrides.templateId ?? TEMPLATE_ID,
      type: 'whatsapp',
      sender: overrides.sender ?? '+15550001111',
      params: {
        cards: overrides.cards ?? [{ media: { mediaLink: 'https://cdn.example/1.jpg' }, bodyParameters: ['Ana', '10%'] }, { media: { mediaLink: 'https://cdn.example/2.jpg' } }],
      },
    },
  } as TriggerCarouselDto;
}

interface Options {
  templates?: Template[];
  senders?: ChannelSender[];
  senderCount?: number;
  postgresDown?: boolean;
  catalogError?: unknown;
  enqueueError?: unknown;
  /** Keys already held, by the message holding each. */
  held?: Record<string, string>;
  /** The catalog holds the templates and senders in memory: its promise-returning reads must not be asked. */
  inMemory?: boolean;
}

function setup(o: Options = {}) {
  const enqueued: CarouselDispatchJob[] = [];
  const claims: QueuedTrigger['claim'][] = [];
  const lookups: Array<[string, string, string]> = [];
  const notAsked = () => {
    throw new Error('held in memory: the catalog must not be asked');
  };
  const catalog = {
    heldTemplateOfBot: (botId: string, id: string) => (o.inMemory ? (o.templates ?? [template]).find((t) => t.botId === botId && t.id === id) : undefined),
    heldSenderByNumber: (botId: string, channel: string, number: string) =>
      o.inMemory ? (o.senders ?? [sender]).find((s) => s.botId === botId && s.channel === channel && s.number === number) : undefined,
    templateOfBot: async (botId: string, id: string) => {
      if (o.inMemory) notAsked();
      if (o.catalogError) throw o.catalogError;
      return (o.templates ?? [template]).find((t) => t.botId === botId && t.id === id) ?? null;
    },
    senderByNumber: async (botId: string, channel: string, number: string) => {
      if (o.inMemory) notAsked();
      lookups.push([botId, channel, number]);
      return (o.senders ?? [sender]).find((s) => s.botId === botId && s.channel === channel && s.number === number) ?? null;
    },
  } as unknown as CarouselCatalog;
  const senders = { countByChannel: async () => o.senderCount ?? 1 } as unknown as ChannelSenderRepository;
  const batcher = {
    enqueue: async ({ job, claim }: QueuedTrigger) => {
      if (o.enqueueError) throw o.enqueueError;
      const holder = claim && Object.entries(o.held ?? {}).find(([key]) => idempotencyClaim(job.botId, key).id === claim.id)?.[1];
      if (holder) return holder;
      enqueued.push(job);
      claims.push(claim);
      return job.messageId;
    },
  } as unknown as TriggerBatcher;
  const postgres = {
    assertReachable: () => {
      if (o.postgresDown) throw new DatabaseUnavailableError('the last connection check of Postgres failed');
    },
  } as unknown as PostgresLiveness;
  const postbackUrls = { problem: async () => null } as unknown as CallbackUrlChecker;
  return { service: new CarouselTriggerService(catalog, senders, batcher, postgres, postbackUrls), enqueued, claims, lookups };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: unknown }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BadRequestException);
  const e = err as BadRequestException;
  return { status: e.getStatus(), message: (e.getResponse() as { message: unknown }).message };
}

describe('CarouselTriggerService.trigger', () => {
  it('queues one job per trigger with the ids from the catalog, the recipient as digits and the cards as sent', async () => {
    const { service, enqueued, claims, lookups } = setup();
    const { msgId: id, queued } = await service.trigger(BOT, dto());
    expect(queued).toBe(true);
    expect(claims).toEqual([undefined]);
    expect(lookups).toEqual([[BOT, 'whatsapp', '15550001111']]);
    expect(enqueued).toEqual([
      {
        messageId: id,
        botId: BOT,
        templateId: TEMPLATE_ID,
        senderId: 'sender-1',
        channel: 'whatsapp',
        recipient: '5511999990000',
        cards: [{ mediaLink: 'https://cdn.example/1.jpg', bodyParameters: ['Ana', '10%'] }, { mediaLink: 'https://cdn.example/2.jpg' }],
      },
    ]);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('queues the same job from the templates and senders the catalog holds in memory, without asking it', async () => {
    const asked = setup();
    const held = setup({ inMemory: true });
    const { msgId } = await held.service.trigger(BOT, dto());
    await asked.service.trigger(BOT, dto());
    expect(held.enqueued).toEqual([{ ...asked.enqueued[0], messageId: msgId }]);
    expect(held.lookups).toEqual([]);
  });

  it("carries the trigger's config.validitySeconds on its job, and none when the trigger gives none", async () => {
    const { service, enqueued } = setup();
    await service.trigger(BOT, { ...dto(), config: { validitySeconds: 3600 } } as TriggerCarouselDto);
    await service.trigger(BOT, dto());
    expect(enqueued.map((j) => j.validitySeconds)).toEqual([3600, undefined]);
  });

  it('keeps numbers given without a leading +, and gives every trigger its own message id', async () => {
    const { service, enqueued } = setup();
    const first = await service.trigger(BOT, dto({ number: '5511999990000', sender: '15550001111' }));
    const second = await service.trigger(BOT, dto());
    expect(enqueued.map((j) => j.recipient)).toEqual(['5511999990000', '5511999990000']);
    expect(first.msgId).not.toBe(second.msgId);
  });

  it("queues a trigger with an Idempotency-Key under the key's claim, keeping its body fingerprint with the message", async () => {
    const { service, enqueued, claims } = setup();
    const outcome = await service.trigger(BOT, dto(), { key: 'order-1', fingerprint: 'fp-1' });
    expect(outcome).toEqual({ msgId: enqueued[0].messageId, queued: true });
    expect(enqueued[0].idempotencyFingerprint).toBe('fp-1');
    expect(claims).toEqual([idempotencyClaim(BOT, 'order-1')]);
  });

  it('answers the message holding the key, queueing nothing, when the key is held', async () => {
    const { service, enqueued } = setup({ held: { 'order-1': 'm-first' } });
    expect(await service.trigger(BOT, dto(), { key: 'order-1', fingerprint: 'fp-1' })).toEqual({ msgId: 'm-first', queued: false });
    expect(enqueued).toEqual([]);
  });

  it('answers 400 for a template id that is not a UUID, without asking the catalog', async () => {
    const { service, enqueued } = setup({ catalogError: new Error('the catalog must not be asked') });
    expect(await refusal(service.trigger(BOT, dto({ templateId: 'promo-1' })))).toEqual({
      status: 400,
      message: 'notification.templateId is not a carousel template of this bot',
    });
    expect(enqueued).toEqual([]);
  });

  it("answers 400 for another bot's or an unknown template", async () => {
    const { service } = setup({ templates: [{ ...template, botId: 'c0000000-0000-4000-8000-000000000009' } as Template] });
    expect(await refusal(service.trigger(BOT, dto()))).toEqual({ status: 400, message: 'notification.templateId is not a carousel template of this bot' });
  });

  it("answers 400 when notification.type is not the template's channel", async () => {
    const { service } = setup({ templates: [{ ...template, channel: 'sms' } as unknown as Template] });
    expect(await refusal(service.trigger(BOT, dto()))).toEqual({
      status: 400,
      message: `notification.type must be sms for template ${TEMPLATE_ID}`,
    });
  });

  it('answers 400 naming the missing sender: none configured for the channel, or not this number', async () => {
    const none = setup({ senders: [], senderCount: 0 });
    expect(await refusal(none.service.trigger(BOT, dto()))).toEqual({
      status: 400,
      message: 'notification.type whatsapp has no sender configured for this bot',
    });
    const other = setup({ senderCount: 1 });
    expect(await refusal(other.service.trigger(BOT, dto({ sender: '+15550002222' })))).toEqual({
      status: 400,
      message: 'notification.sender is not a whatsapp sender of this bot',
    });
  });

  it("answers 400 when the number of cards differs from the template's", async () => {
    const { service, enqueued } = setup();
    const cards = [{ media: { mediaLink: 'https://cdn.example/1.jpg' } }] as TriggerCarouselDto['notification']['params']['cards'];
    expect(await refusal(service.trigger(BOT, dto({ cards })))).toEqual({
      status: 400,
      message: 'notification.params.cards must have exactly 2 cards for this template (got 1)',
    });
    expect(enqueued).toEqual([]);
  });

  it('refuses with DatabaseUnavailableError while Postgres is known to be down, before any lookup', async () => {
    const { service, enqueued, lookups } = setup({ postgresDown: true });
    await expect(service.trigger(BOT, dto())).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(lookups).toEqual([]);
    expect(enqueued).toEqual([]);
  });

  it('passes a catalog read failing on Postgres through as DatabaseUnavailableError', async () => {
    const down = new DatabaseUnavailableError(new Error('ECONNREFUSED'));
    const { service } = setup({ catalogError: down });
    await expect(service.trigger(BOT, dto())).rejects.toBe(down);
  });

  it('passes a failed enqueue through as RedisUnavailableError (no message id answered)', async () => {
    const down = new RedisUnavailableError('Redis did not answer while queueing the messages');
    const { service } = setup({ enqueueError: down });
    await expect(service.trigger(BOT, dto())).rejects.toBe(down);
  });
});
