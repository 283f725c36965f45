import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { RedisClient, RedisTarget, createRequestRedis, redisKey, withTimeout } from '@platform/queue';

/**
 * Send times of each sender number, shared by every worker replica through Redis (one Lua script,
 * Redis' own clock, so replicas on hosts whose clocks differ still agree).
 *
 * Each wall-clock second holds at most `rate` sends of a number, laid out evenly over its first
 * `1000 - EDGE_MARGIN_MS` ms: a send never starts in a second's last EDGE_MARGIN_MS, so one that takes
 * a while to reach Meta still lands in the second it was counted in. A job asks for a slot:
 * - `go`: its slot is now; it sends at once.
 * - `wait` n ms: it holds the next free slot, n ms ahead. It leaves its concurrency slot (moved to the
 *   delayed set) and asks again when it wakes; it then sends if the current second, in its usable
 *   part, has sent fewer than `rate` (a job that wakes late uses the room its own lateness left),
 *   and otherwise gets a new slot.
 * What bounds each second is that count of sends; reservations only spread the sends out, so waiting
 * jobs do not all come back at once. A number slowed down after Meta answered 130429 lets only the
 * slowed rate through, whatever was reserved before.
 *
 * Keys, both under one Redis Cluster hash slot: `whatsapp-pace:{<phone-number-id>}` (a hash: next free
 * time, reservations and sends of the current second, slow-down) and `…:held` (a sorted set: job id →
 * its reserved time). Both expire a minute after the last reservation.
 */
export const EDGE_MARGIN_MS = 150;

/** How long a slow-down after 130429 lasts, and the factor applied to the rate each time Meta repeats it. */
export const SLOW_DOWN_MS = 10_000;
export const SLOW_DOWN_FACTOR = 0.5;

const PACE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
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
  -- this second's sends are used up (a slow-down began): the next second
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

/** A Redis call of the pacer takes at most this long; then the job is treated like any Redis outage. */
const REDIS_TIMEOUT_MS = 2000;

type PacingRedis = RedisClient & {
  whatsappPace(state: string, held: string, jobId: string, rate: number, margin: number): Promise<[number, number]>;
  whatsappSlowDown(state: string, factor: number, forMs: number): Promise<string>;
};

@Injectable()
export class SenderPacer implements OnApplicationShutdown {
  private readonly redis: PacingRedis;
  private readonly target: RedisTarget;

  constructor(env: CoreEnv) {
    this.target = env;
    // Its own connection, queueing commands while it connects (each call is bounded by withTimeout),
    // so the first jobs after start-up do not fail before it is ready.
    const redis = createRequestRedis(env, 'channel-worker-pacing', { enableOfflineQueue: true });
    redis.on('error', () => undefined); // surfaced per call
    redis.defineCommand('whatsappPace', { numberOfKeys: 2, lua: PACE_SCRIPT });
    redis.defineCommand('whatsappSlowDown', { numberOfKeys: 1, lua: SLOW_SCRIPT });
    this.redis = redis as PacingRedis;
  }

  /** Whether job `jobId` may send through `phoneNumberId` now, at `rate` messages per second, or how long it waits. */
  async pace(phoneNumberId: string, jobId: string, rate: number): Promise<PaceDecision> {
    const state = this.stateKey(phoneNumberId);
    const [wait, ms] = await withTimeout(this.redis.whatsappPace(state, `${state}:held`, jobId, rate, EDGE_MARGIN_MS), REDIS_TIMEOUT_MS, 'sender pacing');
    return wait === 0 ? { go: true } : { go: false, waitMs: Math.max(1, Number(ms)) };
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

  private stateKey(phoneNumberId: string): string {
    return redisKey(this.target, `whatsapp-pace:{${phoneNumberId}}`);
  }
}
