import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { CoreEnv } from '@platform/config';
import type { Message, MessageRepository } from '@platform/database';
import type { CarouselDispatchQueue } from '@platform/queue';
import { MessageStatusService, messageStatusFromRow } from './message-status.service.js';

const BOT = 'bot-1';
const T0 = Date.parse('2026-12-16T10:00:00Z');

const row = (over: Partial<Message> = {}) =>
  ({
    id: 'msg_01',
    botId: BOT,
    channel: 'whatsapp',
    recipient: '4915112345678',
    status: 'delivered',
    attempts: 1,
    providerMessageId: 'wamid.X',
    lastErrorCode: null,
    lastErrorText: null,
    createdAt: new Date(T0),
    updatedAt: new Date(T0 + 3000),
    sentAt: new Date(T0 + 1000),
    deliveredAt: new Date(T0 + 2000),
    readAt: null,
    ...over,
  }) as Message;

const job = (over: Record<string, unknown> = {}) => ({
  data: { messageId: 'msg_02', botId: BOT, channel: 'whatsapp', recipient: '4915187654321' },
  timestamp: T0,
  finishedOn: undefined as number | undefined,
  failedReason: undefined as string | undefined,
  returnvalue: undefined as unknown,
  ...over,
});

/** Message rows in memory; the dispatch queue's getJob is a jest.fn. */
function setup(rows: Message[] = [row()]) {
  const findForBot = jest.fn(async (botId: string, id: string) => rows.find((r) => r.botId === botId && r.id === id) ?? null);
  const getJob = jest.fn(async (_id: string): Promise<unknown> => undefined);
  const service = new MessageStatusService({ findForBot } as unknown as MessageRepository, { REDIS_COMMAND_TIMEOUT_MS: 500 } as CoreEnv, { getJob } as unknown as CarouselDispatchQueue);
  return { service, rows, findForBot, getJob };
}

describe('MessageStatusService', () => {
  afterEach(() => jest.useRealTimers());

  it("answers a message's row, without asking the queue", async () => {
    const { service, getJob } = setup();
    await expect(service.find(BOT, 'msg_01')).resolves.toEqual({
      msgId: 'msg_01',
      botId: BOT,
      channel: 'whatsapp',
      recipient: '4915112345678',
      status: 'delivered',
      attempts: 1,
      providerMessageId: 'wamid.X',
      lastError: null,
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0 + 3000).toISOString(),
      sentAt: new Date(T0 + 1000).toISOString(),
      deliveredAt: new Date(T0 + 2000).toISOString(),
      readAt: null,
    });
    expect(getJob).not.toHaveBeenCalled();
  });

  it('answers lastError when the row has an error code or text', () => {
    expect(messageStatusFromRow(row({ status: 'failed', lastErrorCode: '131026', lastErrorText: null })).lastError).toEqual({ code: '131026', text: null });
    expect(messageStatusFromRow(row({ lastErrorCode: null, lastErrorText: 'timeout' })).lastError).toEqual({ code: null, text: 'timeout' });
  });

  it('answers a message still only queued from its job', async () => {
    const { service, getJob } = setup([]);
    getJob.mockResolvedValueOnce(job());
    await expect(service.find(BOT, 'msg_02')).resolves.toEqual({
      msgId: 'msg_02',
      botId: BOT,
      channel: 'whatsapp',
      recipient: '4915187654321',
      status: 'queued',
      attempts: 0,
      providerMessageId: null,
      lastError: null,
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
      sentAt: null,
      deliveredAt: null,
      readAt: null,
    });
    expect(getJob).toHaveBeenCalledWith('msg_02');
  });

  it('answers a job that finished without a row as failed, with its reason', async () => {
    const { service, getJob } = setup([]);
    getJob.mockResolvedValueOnce(job({ finishedOn: T0 + 4000, returnvalue: 'dropped: the template was deleted' }));
    await expect(service.find(BOT, 'msg_02')).resolves.toMatchObject({
      status: 'failed',
      lastError: { code: null, text: 'dropped: the template was deleted' },
      updatedAt: new Date(T0 + 4000).toISOString(),
    });
    getJob.mockResolvedValueOnce(job({ finishedOn: T0 + 4000, failedReason: 'sender deleted' }));
    await expect(service.find(BOT, 'msg_02')).resolves.toMatchObject({ status: 'failed', lastError: { text: 'sender deleted' } });
  });

  it('answers the row written while the queue was read', async () => {
    const { service, rows, getJob, findForBot } = setup([]);
    getJob.mockImplementationOnce(async () => {
      rows.push(row({ id: 'msg_02', status: 'sent' }));
      return job({ finishedOn: T0 + 4000 });
    });
    await expect(service.find(BOT, 'msg_02')).resolves.toMatchObject({ msgId: 'msg_02', status: 'sent', attempts: 1 });
    expect(findForBot).toHaveBeenCalledTimes(2);
  });

  it("answers null for an unknown message and for another bot's job", async () => {
    const { service, getJob } = setup([]);
    await expect(service.find(BOT, 'msg_09')).resolves.toBeNull();
    getJob.mockResolvedValueOnce(job({ data: { messageId: 'msg_02', botId: 'bot-2', channel: 'whatsapp', recipient: '1' } }));
    await expect(service.find(BOT, 'msg_02')).resolves.toBeNull();
  });

  it('fails, rather than hangs, when the queue does not answer in time', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate'] });
    const { service, getJob } = setup([]);
    getJob.mockReturnValueOnce(new Promise(() => {}));
    const caught = service.find(BOT, 'msg_02').catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(500);
    expect(((await caught) as Error).message).toMatch(/reading the message queue timed out after 500 ms/);
  });
});
