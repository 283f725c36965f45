import 'reflect-metadata';
import { jest } from '@jest/globals';
import { NotFoundException } from '@nestjs/common';
import type { CoreEnv } from '@platform/config';
import type { CallbackDeliveryRecord, CallbackDeliveryRepository } from '@platform/database';
import type { CallbackQueue } from '@platform/queue';
import { CallbackLogService } from './callback-log.service.js';

const BOT = 'bot-1';
const T0 = Date.parse('2026-12-16T10:00:00Z');

const record = (over: Partial<CallbackDeliveryRecord> = {}): CallbackDeliveryRecord => ({
  id: 'msg_01.delivered',
  botId: BOT,
  kind: 'postback',
  event: 'message.status',
  messageId: 'msg_01',
  status: 'delivered',
  url: 'https://hooks.example.com/postback',
  body: '{"status":"delivered"}',
  attempts: 2,
  replays: 0,
  duplicates: 0,
  lastStatus: 200,
  lastError: null,
  deliveredAt: new Date(T0 + 1000),
  createdAt: new Date(T0),
  updatedAt: new Date(T0 + 1000),
  ...over,
});

/** The log in memory; the callback queue is a jest.fn (a never-settling add stands for Redis not answering). */
function setup(rows: CallbackDeliveryRecord[] = [record()]) {
  const repo = {
    page: jest.fn(async (botId: string, page: number, pageSize: number, kind?: string) => {
      const mine = rows.filter((r) => r.botId === botId && (!kind || r.kind === kind));
      return { items: mine.slice((page - 1) * pageSize, page * pageSize), total: mine.length };
    }),
    find: jest.fn(async (botId: string, id: string) => rows.find((r) => r.botId === botId && r.id === id) ?? null),
  };
  const queue = { add: jest.fn(async (..._args: unknown[]) => ({})) };
  const service = new CallbackLogService(repo as unknown as CallbackDeliveryRepository, { REDIS_COMMAND_TIMEOUT_MS: 500 } as CoreEnv, queue as unknown as CallbackQueue);
  return { service, repo, queue };
}

describe('CallbackLogService', () => {
  afterEach(() => jest.useRealTimers());

  it('pages the log, of one kind when asked, as ISO dates', async () => {
    const { service } = setup([record(), record({ id: 'evt_2', kind: 'webhook', event: 'conversation.message', messageId: null, status: null, deliveredAt: null })]);
    const all = await service.page(BOT, 1, 10);
    expect(all).toMatchObject({ page: 1, pageSize: 10, total: 2 });
    expect(all.items[0]).toEqual({
      id: 'msg_01.delivered',
      kind: 'postback',
      event: 'message.status',
      messageId: 'msg_01',
      status: 'delivered',
      url: 'https://hooks.example.com/postback',
      attempts: 2,
      replays: 0,
      duplicates: 0,
      lastStatus: 200,
      lastError: null,
      deliveredAt: new Date(T0 + 1000).toISOString(),
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0 + 1000).toISOString(),
    });
    expect(all.items[1].deliveredAt).toBeNull();
    const webhooks = await service.page(BOT, 1, 10, 'webhook');
    expect(webhooks).toMatchObject({ total: 1, items: [{ id: 'evt_2' }] });
  });

  it('queues a postback again with its id, body, URL and status, under a job id of its own', async () => {
    jest.useFakeTimers({ now: T0 + 5000, doNotFake: ['nextTick', 'setImmediate'] });
    const { service, queue } = setup();
    await expect(service.replay(BOT, 'msg_01.delivered')).resolves.toMatchObject({ id: 'msg_01.delivered', kind: 'postback' });
    expect(queue.add).toHaveBeenCalledWith(
      'replay',
      {
        id: 'msg_01.delivered',
        botId: BOT,
        kind: 'postback',
        event: 'message.status',
        url: 'https://hooks.example.com/postback',
        body: '{"status":"delivered"}',
        messageId: 'msg_01',
        status: 'delivered',
      },
      { jobId: `msg_01.delivered.replay.${T0 + 5000}` },
    );
  });

  it("sends a webhook call's replay to the bot's webhook as it is now, without message or status when it had none", async () => {
    const { service, queue } = setup([record({ id: 'evt_2', kind: 'webhook', event: 'conversation.message', messageId: null, status: null })]);
    await service.replay(BOT, 'evt_2', 'webhook');
    expect(queue.add.mock.calls[0][1]).toEqual({ id: 'evt_2', botId: BOT, kind: 'webhook', event: 'conversation.message', url: null, body: '{"status":"delivered"}' });
  });

  it('drops a status that is no lifecycle status', async () => {
    const { service, queue } = setup([record({ status: 'weird' })]);
    await service.replay(BOT, 'msg_01.delivered');
    expect(queue.add.mock.calls[0][1]).not.toHaveProperty('status');
  });

  it("answers 404 for an unknown id, another bot's entry, another kind, an unknown kind and an over-long id", async () => {
    const { service, repo, queue } = setup([record(), record({ id: 'odd', kind: 'legacy' })]);
    const cases: Array<[string, string, 'webhook' | 'postback' | undefined, string]> = [
      [BOT, 'nope', undefined, 'No callback nope for this bot'],
      ['bot-2', 'msg_01.delivered', undefined, 'No callback msg_01.delivered for this bot'],
      [BOT, 'msg_01.delivered', 'webhook', 'No webhook msg_01.delivered for this bot'],
      [BOT, 'odd', undefined, 'No callback odd for this bot'],
    ];
    for (const [botId, id, kind, message] of cases) {
      const err = await service.replay(botId, id, kind).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundException);
      expect((err as Error).message).toBe(message);
    }
    repo.find.mockClear();
    await expect(service.replay(BOT, 'x'.repeat(201))).rejects.toBeInstanceOf(NotFoundException);
    expect(repo.find).not.toHaveBeenCalled();
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('fails, rather than hangs, when the queue does not answer in time', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate'] });
    const { service, queue } = setup();
    queue.add.mockReturnValueOnce(new Promise(() => {}));
    const caught = service.replay(BOT, 'msg_01.delivered').catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(500);
    expect(((await caught) as Error).message).toMatch(/queueing the replay timed out after 500 ms/);
  });
});
