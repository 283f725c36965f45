import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CoreEnv, PushEnv } from '@platform/config';
import { REDIS_NOW_LUA, REQUEST_REDIS, SLOW_DOWN_LUA, type RedisClient, type RedisTarget, fcmPaceKey, withTimeout } from '@platform/queue';
import { Counter } from 'prom-client';

/** No budget is handed out in a second's last EDGE_MARGIN_MS, so what it lets go lands at FCM within that second. */
export const EDGE_MARGIN_MS = 100;
/** After a 429 (once the Retry-After hold is over), the project's pace is multiplied by this for PUSH_FCM_SLOW_DOWN_MS; again on each later storm. */
export const SLOW_DOWN_FACTOR = 0.5;

const REDIS_TIMEOUT_MS = 2000;

/**
 * What the pacer gave: `granted` messages may go now (as chunk `chunk`: report it with landed() once
 * FCM answered them); when fewer than asked, the rest waits `waitMs`.
 */
export interface PaceGrant {
  granted: number;
  waitMs: number;
  chunk?: string;
}

/**
 * KEYS[1] the project's hash, KEYS[2] its chunks in flight (a sorted set: `<id>:<count>` → when it
 * stops counting). ARGV quota a minute, messages wanted, edge margin, in-flight ms, the new chunk's
 * id, a chunk that landed ('' for none). The quota is handed out per second of Redis' clock,
 * floor(quota / 60) a second (so no minute, whatever its alignment with FCM's, gets more than the
 * quota), times the slow-down factor in force; nothing while a 429's Retry-After holds the project.
 * A second's count starts with the chunks still in flight when it began: a chunk granted late in a
 * second whose messages reach FCM in the next one (a busy host, a new connection) counts in both,
 * so the next second does not hand its whole share out again. Returns {granted, ms to wait for the
 * rest (0 when all granted)}.
 */
const TAKE_SCRIPT = `${REDIS_NOW_LUA}
local sec = math.floor(now / 1000)
local quota, want, margin, inFlightMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local st = redis.call('HMGET', KEYS[1], 'sec', 'n', 'slow_until', 'factor', 'hold_until')
local n = tonumber(st[2]) or 0
if tonumber(st[1]) ~= sec then
  n = 0
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. (sec * 1000), '+inf')) do n = n + (tonumber(string.match(m, ':(%d+)$')) or 0) end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
end
if ARGV[6] ~= '' then redis.call('ZREM', KEYS[2], ARGV[6]) end
local g = 0
local wait = 0
local hold = tonumber(st[5]) or 0
if want > 0 then
  local rate = math.max(1, math.floor(quota / 60))
  if now < (tonumber(st[3]) or 0) then rate = math.max(1, math.floor(rate * (tonumber(st[4]) or 1))) end
  if now < hold then
    wait = hold - now
  elseif now - sec * 1000 >= 1000 - margin then
    wait = (sec + 1) * 1000 - now
  else
    g = math.min(want, math.max(0, rate - n))
    if g < want then wait = (sec + 1) * 1000 - now end
  end
end
if g > 0 then
  n = n + g
  redis.call('ZADD', KEYS[2], now + inFlightMs, ARGV[5] .. ':' .. g)
  redis.call('PEXPIRE', KEYS[2], inFlightMs + 60000)
end
redis.call('HSET', KEYS[1], 'sec', sec, 'n', n)
if redis.call('PTTL', KEYS[1]) < 120000 then redis.call('PEXPIRE', KEYS[1], 120000) end
return {g, wait}
`;

/**
 * KEYS[1] the project's hash; ARGV hold ms. FCM answered 429: nothing goes before the Retry-After
 * (every replica). The first 429 of a storm (none held now) also slows the pace down: the 429s of
 * the messages already in flight are the same storm and do not slow it further. Returns 1 when slowed.
 */
const QUOTA_EXCEEDED_SCRIPT = `${REDIS_NOW_LUA}
local hold = tonumber(redis.call('HGET', KEYS[1], 'hold_until')) or 0
local holdTo = now + tonumber(ARGV[1])
if holdTo > hold then redis.call('HSET', KEYS[1], 'hold_until', holdTo) end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) + 120000 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + 120000) end
if now < hold then return 0 end
return 1
`;

type PacingRedis = RedisClient & {
  fcmPaceTake(state: string, sending: string, quota: number, want: number, margin: number, inFlightMs: number, chunk: string, landed: string): Promise<[number, number]>;
  fcmQuotaExceeded(key: string, holdMs: number): Promise<number>;
  fcmSlowDown(key: string, factor: number, forMs: number): Promise<string>;
};

const waits = new Counter({
  name: 'push_fcm_paced_waits_total',
  help: "Times a fan-out batch waited for its Firebase project's FCM quota: in the job (a second's budget used) or delayed (held after a 429)",
  labelNames: ['how'],
});
const waitSeconds = new Counter({ name: 'push_fcm_paced_wait_seconds_total', help: 'Seconds fan-out batches waited for FCM quota', labelNames: ['how'] });
const quotaExceeded = new Counter({ name: 'push_fcm_quota_exceeded_total', help: 'FCM answers 429 (QUOTA_EXCEEDED) received' });
const slowDowns = new Counter({ name: 'push_fcm_pace_slow_downs_total', help: "Times a project's FCM pace was lowered after a 429 storm" });

/**
 * Each Firebase project's FCM messages, paced at its quota across every push-service replica, with
 * one Redis hash per project (`push:fcm-pace:{<project>}`, and `…:sending`, its chunks in flight) and scripts on Redis' clock, as
 * WhatsApp's SenderPacer does per number. FCM's quota counts messages a minute per project
 * (600,000 by default), at 10,000/s far above WhatsApp's rates: the budget is taken as a count per
 * chunk of a batch (one script call for up to a batch's messages), not per message.
 */
@Injectable()
export class FcmPacer {
  private readonly logger = new Logger('FcmPacer');
  private readonly redis: PacingRedis;
  private readonly inFlightMs: number;
  private readonly slowDownMs: number;

  constructor(
    @Inject(REQUEST_REDIS) redis: RedisClient,
    private readonly target: CoreEnv,
    env: PushEnv,
  ) {
    // A chunk stops counting this long after it was granted, should its landing never be reported
    // (its process died); its messages wait in this process' queue at most a few FCM timeouts.
    this.inFlightMs = 2 * env.FCM_TIMEOUT_MS + 1000;
    this.slowDownMs = env.PUSH_FCM_SLOW_DOWN_MS;
    redis.defineCommand('fcmPaceTake', { numberOfKeys: 2, lua: TAKE_SCRIPT });
    redis.defineCommand('fcmQuotaExceeded', { numberOfKeys: 1, lua: QUOTA_EXCEEDED_SCRIPT });
    redis.defineCommand('fcmSlowDown', { numberOfKeys: 1, lua: SLOW_DOWN_LUA });
    this.redis = redis as PacingRedis;
  }

  /** Up to `want` messages of `projectId` (quota a minute) may go now: how many, and how long the rest waits. */
  async take(projectId: string, quotaPerMinute: number, want: number): Promise<PaceGrant> {
    const chunk = randomUUID();
    const key = this.key(projectId);
    const [granted, waitMs] = await withTimeout(this.redis.fcmPaceTake(key, `${key}:sending`, quotaPerMinute, want, EDGE_MARGIN_MS, this.inFlightMs, chunk, ''), REDIS_TIMEOUT_MS, 'FCM pacing');
    return Number(granted) > 0 ? { granted: Number(granted), waitMs: Number(waitMs), chunk: `${chunk}:${granted}` } : { granted: 0, waitMs: Number(waitMs) };
  }

  /**
   * FCM answered every message of a granted chunk once (a retry is admitted on its own): it stops
   * counting in the seconds after. Not awaited; a chunk not reported stops counting when it expires.
   */
  landed(projectId: string, chunk: string | undefined): void {
    if (!chunk) return;
    const key = this.key(projectId);
    withTimeout(this.redis.fcmPaceTake(key, `${key}:sending`, 1, 0, EDGE_MARGIN_MS, this.inFlightMs, '', chunk), REDIS_TIMEOUT_MS, 'FCM pacing').catch((err: Error) =>
      this.logger.warn(`project ${projectId}: a landed chunk could not be reported (${err.message}); it counts until it expires`),
    );
  }

  /** One message (a retry): waits in the job until the project's budget lets it go, or `stopped()`; the chunk to report landed. */
  async admit(projectId: string, quotaPerMinute: number, stopped: () => boolean): Promise<string | undefined> {
    for (;;) {
      const { granted, waitMs, chunk } = await this.take(projectId, quotaPerMinute, 1);
      if (granted > 0 || stopped()) return chunk;
      this.waited('in-job', waitMs);
      await sleep(waitMs);
    }
  }

  /** Counts a wait in the metrics. */
  waited(how: 'in-job' | 'delayed', ms: number): void {
    waits.inc({ how });
    waitSeconds.inc({ how }, ms / 1000);
  }

  /** FCM answered 429 for the project: every replica holds its messages `holdMs` (Retry-After), then goes on slower for a while. */
  async quotaExceeded(projectId: string, holdMs: number): Promise<void> {
    quotaExceeded.inc();
    const key = this.key(projectId);
    const first = Number(await withTimeout(this.redis.fcmQuotaExceeded(key, holdMs), REDIS_TIMEOUT_MS, 'FCM pacing'));
    if (first !== 1) return;
    slowDowns.inc();
    const factor = await withTimeout(this.redis.fcmSlowDown(key, SLOW_DOWN_FACTOR, holdMs + this.slowDownMs), REDIS_TIMEOUT_MS, 'FCM pacing');
    this.logger.warn(
      `FCM quota exceeded for project ${projectId}: every push service holds its messages ${Math.ceil(holdMs / 1000)} s, then sends at ${factor} of the quota for ${this.slowDownMs / 1000} s`,
    );
  }

  private key(projectId: string): string {
    return fcmPaceKey(this.target as RedisTarget, projectId);
  }
}
