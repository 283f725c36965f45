import { Inject, Injectable, Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { PushRpcEnv } from '@platform/config';
import { PushRpcRequest, PushRpcResult } from '@platform/contracts';
import { REQUEST_REDIS } from '@platform/queue';

const PENDING = '…';
const ANSWER_TTL_MS = 60_000;
/** Requests with a caller's Idempotency-Key keep their answer a day. */
const IDEMPOTENT_TTL_MS = 24 * 3600_000;

/**
 * Redis pub/sub delivers a request to every push-service replica. The first to claim its requestId
 * does the work and stores the answer; the others wait for that answer and send the same one, so the
 * gateway gets one outcome however many replicas run.
 */
@Injectable()
export class RpcOnce {
  private readonly logger = new Logger('PushRpc');

  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: Redis,
    private readonly env: PushRpcEnv,
  ) {}

  async run<T>(req: PushRpcRequest<unknown>, work: () => Promise<PushRpcResult<T>>): Promise<PushRpcResult<T>> {
    const key = `push:rpc:${req.requestId}`;
    const ttl = req.requestId.startsWith('idem:') ? IDEMPOTENT_TTL_MS : ANSWER_TTL_MS;
    let claimed: string | null;
    try {
      claimed = await this.redis.set(key, PENDING, 'PX', ttl, 'NX');
    } catch {
      return { ok: false, status: 503, message: 'The push service cannot reach Redis; nothing was done. Retry later.' };
    }
    if (!claimed) return this.answerOf<T>(key);
    let result: PushRpcResult<T>;
    try {
      result = await work();
    } catch (err) {
      result = failure(err);
      this.logger.error(`request ${req.requestId} failed: ${describe(err)}`);
      await this.redis.del(key).catch(() => undefined); // nothing durable was done: a retry may run it again
      return result;
    }
    await this.redis.set(key, JSON.stringify(result), 'PX', ttl).catch(() => undefined);
    return result;
  }

  private async answerOf<T>(key: string): Promise<PushRpcResult<T>> {
    const deadline = Date.now() + this.env.PUSH_RPC_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const value = await this.redis.get(key).catch(() => null);
      if (value === null) break;
      if (value !== PENDING) return JSON.parse(value) as PushRpcResult<T>;
      await sleep(20);
    }
    return { ok: false, status: 503, message: 'The push service did not finish the request; retry later.' };
  }
}

function failure(err: unknown): PushRpcResult<never> {
  const text = describe(err);
  if (/Prisma|DriverAdapter|database|ECONNREFUSED|Connection terminated|timeout exceeded when trying to connect/i.test(text)) {
    return { ok: false, status: 503, message: 'The database is unavailable; nothing was done. Retry later.' };
  }
  if (/Redis|Stream isn't writeable|Connection is closed/i.test(text)) {
    return { ok: false, status: 503, message: 'The push service cannot reach Redis; nothing was done. Retry later.' };
  }
  return { ok: false, status: 500, message: 'The push service failed to handle the request' };
}

/** Error name and the start of its message (never a payload: requests may carry a sealed credential). */
function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message.slice(0, 300)}` : String(err).slice(0, 300);
}
