import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CoreEnv, WhatsAppEnv } from '@platform/config';
import { type RedisClient, type RedisTarget, createRequestRedis, redisKey, withTimeout } from '@platform/queue';

/**
 * Each WhatsApp sender number's sends, shared by every worker replica through Redis (Lua scripts on
 * Redis' own clock, so replicas on hosts whose clocks differ still agree). A send is paced twice:
 *
 * 1. `reserve`, before the job claims its message: the job gets the number's next free slot, `rate`
 *    slots a wall-clock second laid out evenly over its first `1000 - EDGE_MARGIN_MS` ms. A job whose
 *    slot is ahead leaves its concurrency slot (the delayed set) and asks again when it wakes; it then
 *    goes if its slot's second has begun and, when it woke late, if that second has let fewer than
 *    `rate` jobs go (a late job uses the room its own lateness left), else it gets a new slot. This
 *    only spreads the jobs out, so waiting jobs do not all come back at once and none waits while
 *    holding a claimed message.
 * 2. `sendCounted`, right before the HTTP request (claim, catalog, token and body done): the send is
 *    counted, and refused when its second is full. What bounds each second is this count. A send may
 *    land at Meta in any second from the one it was counted in to the one its answer came back in, and
 *    nothing bounds how long that takes (event-loop lag, a new connection, a busy host), so a send is
 *    counted in every second it is still in flight at the start of: each second's count begins with
 *    the sends in flight when it began. (Keeping sends out of a second's last EDGE_MARGIN_MS alone would
 *    hold only while every send landed within that margin.) The slots' margin keeps most sends from
 *    straddling two seconds, and so from being counted twice.
 *
 * A number slowed down after Meta answered 130429 lets only the slowed rate through, whatever was
 * reserved before.
 *
 * Keys, all under one Redis Cluster hash slot: `whatsapp-pace:{<phone-number-id>}` (a hash: next free
 * slot, reservations and go's of their second, sends counted in the current second, slow-down),
 * `…:held` (a sorted set: job id → its reserved time) and `…:sending` (a sorted set: sends in flight →
 * when they stop counting, the HTTP timeout after they began, should a worker die before its answer).
 */
export const EDGE_MARGIN_MS = 150;

/** How long a slow-down after 130429 lasts, and the factor applied to the rate each time Meta repeats it. */
export const SLOW_DOWN_MS = 10_000;
export const SLOW_DOWN_FACTOR = 0.5;

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

const RESERVE_SCRIPT = `${NOW}
local job, rate, margin = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local usable = 1000 - margin
local st = redis.call('HMGET', KEYS[1], 'next', 'rsec', 'rn', 'gsec', 'gn', 'slow_until', 'factor')
local nextAt = tonumber(st[1]) or 0
local rsec, rn = tonumber(st[2]) or -1, tonumber(st[3]) or 0
local gsec, gn = tonumber(st[4]) or -1, tonumber(st[5]) or 0
local eff = rate
if now < (tonumber(st[6]) or 0) then eff = math.max(1, math.floor(rate * (tonumber(st[7]) or 1))) end
local sec = math.floor(now / 1000)
if gsec ~= sec then gsec, gn = sec, 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)

local held = tonumber(redis.call('ZSCORE', KEYS[2], job))
if held then
  local hsec = math.floor(held / 1000)
  if now < hsec * 1000 then return {1, held - now} end
  redis.call('ZREM', KEYS[2], job)
  -- on time, or late but this second still has room (a slot left unused by a late job is not lost)
  if now < sec * 1000 + usable and gn < eff then
    redis.call('HSET', KEYS[1], 'gsec', gsec, 'gn', gn + 1)
    return {0, 0}
  end
end

local at = math.max(nextAt, now)
local s = math.floor(at / 1000)
if s ~= rsec then rsec, rn = s, 0 end
if at - s * 1000 >= usable or rn >= eff then
  s = s + 1
  at = s * 1000
  rsec, rn = s, 0
end
rn = rn + 1
nextAt = at + usable / eff
local ttl = math.floor(nextAt - now) + 60000
if at <= now and gn < eff then
  redis.call('HSET', KEYS[1], 'next', nextAt, 'rsec', rsec, 'rn', rn, 'gsec', gsec, 'gn', gn + 1)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {0, 0}
end
if at <= now then
  -- this second's go's are used up (a slow-down began): the next second
  s = sec + 1
  at = s * 1000
  rsec, rn = s, 1
  nextAt = at + usable / eff
end
redis.call('HSET', KEYS[1], 'next', nextAt, 'rsec', rsec, 'rn', rn, 'gsec', gsec, 'gn', gn)
redis.call('ZADD', KEYS[2], at, job)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return {1, at - now}
`;

// Sends counted in the current second (csec, cn): a second's count starts with the sends in flight when it
// began, entries of KEYS[2] not yet expired then. Every script that adds or removes a send runs this
// first, so a send still in flight at a second's start is in that second's count even if it is removed
// (its answer came back) by the second's first script.
const COUNTED = `${NOW}
local sec = math.floor(now / 1000)
local cst = redis.call('HMGET', KEYS[1], 'csec', 'cn')
local cn = tonumber(cst[2]) or 0
if tonumber(cst[1]) ~= sec then cn = redis.call('ZCOUNT', KEYS[2], '(' .. (sec * 1000), '+inf') end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
`;

const TAKE_SCRIPT = `${COUNTED}
local send, rate, inFlightMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local st = redis.call('HMGET', KEYS[1], 'slow_until', 'factor')
local eff = rate
if now < (tonumber(st[1]) or 0) then eff = math.max(1, math.floor(rate * (tonumber(st[2]) or 1))) end
if cn >= eff then
  redis.call('HSET', KEYS[1], 'csec', sec, 'cn', cn)
  return (sec + 1) * 1000 - now
end
redis.call('HSET', KEYS[1], 'csec', sec, 'cn', cn + 1)
redis.call('ZADD', KEYS[2], now + inFlightMs, send)
if redis.call('PTTL', KEYS[1]) < inFlightMs + 60000 then redis.call('PEXPIRE', KEYS[1], inFlightMs + 60000) end
redis.call('PEXPIRE', KEYS[2], inFlightMs + 60000)
return 0
`;

const LANDED_SCRIPT = `${COUNTED}
redis.call('HSET', KEYS[1], 'csec', sec, 'cn', cn)
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
`;

const SLOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local st = redis.call('HMGET', KEYS[1], 'slow_until', 'factor')
local factor = 1
if now < (tonumber(st[1]) or 0) then factor = tonumber(st[2]) or 1 end
factor = math.max(factor * tonumber(ARGV[1]), 0.001)
redis.call('HSET', KEYS[1], 'slow_until', now + tonumber(ARGV[2]), 'factor', factor)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 60000)
return tostring(factor)
`;

export type PaceDecision = { go: true } | { go: false; waitMs: number };

/** What `sendCounted` did: sent (with the send's result), or not, the second being full (try again in waitMs). */
export type CountedSend<T> = { sent: true; value: T } | { sent: false; waitMs: number };

/** A Redis call of the pacer takes at most this long; then the job is treated like any Redis outage. */
const REDIS_TIMEOUT_MS = 2000;

type PacingRedis = RedisClient & {
  whatsappReserve(state: string, held: string, jobId: string, rate: number, margin: number): Promise<[number, number]>;
  whatsappTake(state: string, sending: string, send: string, rate: number, inFlightMs: number): Promise<number>;
  whatsappLanded(state: string, sending: string, send: string): Promise<number>;
  whatsappSlowDown(state: string, factor: number, forMs: number): Promise<string>;
};

@Injectable()
export class SenderPacer implements OnApplicationShutdown {
  private readonly logger = new Logger('SenderPacer');
  private readonly redis: PacingRedis;
  /** A send stops counting this long after it began, should its answer never be reported (its worker died). */
  private readonly inFlightMs: number;
  private readonly target: RedisTarget;

  constructor(env: CoreEnv, whatsapp: WhatsAppEnv) {
    this.target = env;
    // Its own connection, queueing commands while it connects (each call is bounded by withTimeout),
    // so the first jobs after start-up do not fail before it is ready.
    const redis = createRequestRedis(env, 'channel-worker-pacing', { enableOfflineQueue: true });
    redis.on('error', () => undefined); // surfaced per call
    redis.defineCommand('whatsappReserve', { numberOfKeys: 2, lua: RESERVE_SCRIPT });
    redis.defineCommand('whatsappTake', { numberOfKeys: 2, lua: TAKE_SCRIPT });
    redis.defineCommand('whatsappLanded', { numberOfKeys: 2, lua: LANDED_SCRIPT });
    redis.defineCommand('whatsappSlowDown', { numberOfKeys: 1, lua: SLOW_SCRIPT });
    this.redis = redis as PacingRedis;
    this.inFlightMs = whatsapp.WHATSAPP_TIMEOUT_MS + 1000;
  }

  /**
   * Before a job claims its message: whether job `jobId` may go on to send through `phoneNumberId` now,
   * at `rate` messages per second, or how long it waits for the slot it now holds.
   */
  async reserve(phoneNumberId: string, jobId: string, rate: number): Promise<PaceDecision> {
    const state = this.stateKey(phoneNumberId);
    const [wait, ms] = await withTimeout(this.redis.whatsappReserve(state, `${state}:held`, jobId, rate, EDGE_MARGIN_MS), REDIS_TIMEOUT_MS, 'sender pacing');
    return wait === 0 ? { go: true } : { go: false, waitMs: Math.max(1, Number(ms)) };
  }

  /**
   * Runs `send` (one request to the Cloud API through `phoneNumberId`) as soon as a second has sent
   * fewer than `rate`, counting it in every second until its answer is back. Waits here for such a
   * second up to `maxWaitMs`; beyond that, does not run it and says how long until the next second.
   */
  async sendCounted<T>(phoneNumberId: string, rate: number, send: () => Promise<T>, maxWaitMs = 0): Promise<CountedSend<T>> {
    const state = this.stateKey(phoneNumberId);
    const id = randomUUID();
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const waitMs = Number(await withTimeout(this.redis.whatsappTake(state, `${state}:sending`, id, rate, this.inFlightMs), REDIS_TIMEOUT_MS, 'sender pacing'));
      if (waitMs === 0) break;
      if (Date.now() + waitMs > deadline) return { sent: false, waitMs };
      await sleep(waitMs);
    }
    try {
      return { sent: true, value: await send() };
    } finally {
      // Not awaited: the answer is the job's whatever Redis says; a send not reported stops counting when it expires.
      withTimeout(this.redis.whatsappLanded(state, `${state}:sending`, id), REDIS_TIMEOUT_MS, 'sender pacing').catch((err: unknown) => {
        this.logger.warn(`sender ${phoneNumberId}: a finished send could not be reported (${(err as Error).message}); it counts until it expires`);
      });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * Meta said the number's throughput is used up (130429): its real tier is below the configured rate.
   * The rate is multiplied by SLOW_DOWN_FACTOR for SLOW_DOWN_MS (again on each repeat); the factor in force.
   */
  async slowDown(phoneNumberId: string): Promise<number> {
    return Number(await withTimeout(this.redis.whatsappSlowDown(this.stateKey(phoneNumberId), SLOW_DOWN_FACTOR, SLOW_DOWN_MS), REDIS_TIMEOUT_MS, 'sender slow-down'));
  }

  /** The number's keys share its `{phone}` hash tag, so each script's keys are in one cluster slot. */
  private stateKey(phoneNumberId: string): string {
    return redisKey(this.target, `whatsapp-pace:{${phoneNumberId}}`);
  }
}
