import 'reflect-metadata';
import type { CoreEnv } from '@platform/config';
import type { MessageRepository } from '@platform/database';
import { RedisUnavailableError, type ProducerQueue } from '@platform/queue';
import { IDEMPOTENCY_TTL_MS, TriggerIdempotency, idempotencyClaim } from './trigger-idempotency.js';

const core = { REDIS_COMMAND_TIMEOUT_MS: 200 } as CoreEnv;

/** Jobs and rows by message id, each with the fingerprint it keeps (null: none); `held`: claim id → message id. */
function setup(opts: { jobs?: Record<string, string | null>; rows?: Record<string, string | null>; held?: Record<string, string>; hangs?: boolean } = {}) {
  const queue = {
    getJob: async (id: string) => {
      if (opts.hangs) return new Promise(() => undefined);
      const f = opts.jobs?.[id];
      return f === undefined ? undefined : { id, data: f === null ? {} : { idempotencyFingerprint: f } };
    },
    getDeduplicationJobId: async (claimId: string) => opts.held?.[claimId] ?? null,
  } as unknown as ProducerQueue<'carousel-dispatch'>;
  const messages = {
    findForBot: async (_bot: string, id: string) => {
      const f = opts.rows?.[id];
      return f === undefined ? null : { id, idempotencyFingerprint: f };
    },
  } as unknown as MessageRepository;
  return new TriggerIdempotency(core, queue, messages);
}

describe('idempotencyClaim', () => {
  it("claims a key of the bot's for 24 h; two bots may use the same key", () => {
    expect(idempotencyClaim('bot-1', 'order-1')).toEqual({ id: 'bot-1:order-1', ttl: IDEMPOTENCY_TTL_MS });
    expect(IDEMPOTENCY_TTL_MS).toBe(24 * 3600_000);
    expect(idempotencyClaim('bot-2', 'order-1').id).not.toBe(idempotencyClaim('bot-1', 'order-1').id);
  });
});

describe('TriggerIdempotency', () => {
  it('replays the holding message to the same body, from its job while queued and from its row once the job is gone', async () => {
    expect(await setup({ jobs: { m1: 'fp' } }).repeat('bot-1', 'm1', 'fp')).toEqual({ kind: 'replay', msgId: 'm1' });
    expect(await setup({ rows: { m1: 'fp' } }).repeat('bot-1', 'm1', 'fp')).toEqual({ kind: 'replay', msgId: 'm1' });
  });

  it('refuses another body, whether the holder is still queued or recorded', async () => {
    expect(await setup({ jobs: { m1: 'fp-a' } }).repeat('bot-1', 'm1', 'fp-b')).toEqual({ kind: 'other-body' });
    expect(await setup({ rows: { m1: 'fp-a' } }).repeat('bot-1', 'm1', 'fp-b')).toEqual({ kind: 'other-body' });
  });

  it('replays a holder whose fingerprint cannot be read rather than sending a second message', async () => {
    expect(await setup().repeat('bot-1', 'm1', 'fp')).toEqual({ kind: 'replay', msgId: 'm1' });
    expect(await setup({ jobs: { m1: null } }).repeat('bot-1', 'm1', 'fp')).toEqual({ kind: 'replay', msgId: 'm1' });
    expect(await setup({ rows: { m1: null } }).repeat('bot-1', 'm1', 'fp')).toEqual({ kind: 'replay', msgId: 'm1' });
  });

  it("names the message holding a bot's key, if any", async () => {
    const idem = setup({ held: { [idempotencyClaim('bot-1', 'k1').id]: 'm1' } });
    expect(await idem.holder('bot-1', 'k1')).toBe('m1');
    expect(await idem.holder('bot-2', 'k1')).toBeUndefined();
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    await expect(setup({ hangs: true }).repeat('bot-1', 'm1', 'fp')).rejects.toBeInstanceOf(RedisUnavailableError);
  });
});
