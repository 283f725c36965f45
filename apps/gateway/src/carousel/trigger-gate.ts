import { Inject, Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { TickBatcher } from '@platform/common';
import { REQUEST_REDIS, type RedisClient, triggerQuotaKey, withTimeout } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';
import { QuotaLeases } from './quota-lease.js';

/** The quota window: a bot's count starts at its first trigger and resets a minute later. */
export const QUOTA_WINDOW_MS = 60_000;
/** One trigger passing the gate: charged to `botId`'s quota of `limit`. */
export interface GateEntry {
  botId: string;
  limit: number;
}

export interface GateResult {
  limit: number;
  /** This trigger's place in the bot's current window (1 = the window's first); over `limit`: refused. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

// KEYS[1]: the bot's counter. ARGV: window ms, triggers in the batch, limit, places wanted for a lease,
// the ms left in the bot's running window as the gateway knows it (0: unknown, ask PTTL).
// Returns {count after the batch, ms to reset, places leased (counted after the batch's, never beyond the limit)}.
const GATE_SCRIPT = `
local n = tonumber(ARGV[2])
local c = redis.call('INCRBY', KEYS[1], n)
local ttl = -1
if c ~= n then
  ttl = tonumber(ARGV[5])
  if ttl <= 0 then ttl = redis.call('PTTL', KEYS[1]) end
end
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
local leased = math.min(tonumber(ARGV[4]), tonumber(ARGV[3]) - c)
if leased > 0 then redis.call('INCRBY', KEYS[1], leased) else leased = 0 end
return {c, ttl, leased}`;

/**
 * The gateway names the time left in a window it has seen only while at least this much is left, so a
 * window about to end is asked about (PTTL) rather than assumed still running.
 */
const KNOWN_WINDOW_MIN_LEFT_MS = 1000;
/** Bots whose window end is remembered, at most (a bounded map, like the catalog's). */
const KNOWN_WINDOWS_MAX = 10_000;

type GateRedis = RedisClient & {
  triggerGate(counterKey: string, windowMs: number, triggers: number, limit: number, wanted: number, knownLeftMs: number): Promise<number[]>;
};

/**
 * The trigger's quota, shared by every replica through Redis at the cost of one script call per bot per
 * event-loop turn: the turn's triggers of a bot are charged together (INCRBY) and each learns its place
 * in the window. A busy bot's triggers mostly pass on places the call leased ahead for them
 * (QuotaLeases), with no call at all. (An Idempotency-Key is claimed by the job's own `add`, not here.)
 *
 * The call flushes through CorkedTurn, so a turn's gate calls and the jobs of triggers answered in that
 * turn leave in one socket write. A batch goes in every turn that has one, even while an earlier one is
 * out: holding the next batch until the answer (Nagle's rule) makes the gateway and Redis take turns
 * instead of working at once. Only a bot's triggers wait, for a lease call of that bot that is out:
 * they will most likely pass on it.
 */
@Injectable()
export class TriggerGate {
  private readonly batches: TickBatcher<GateEntry, GateResult>;
  private readonly redis: GateRedis;
  /**
   * When (Date.now) each bot's quota window ends, as its last call told: the time the call was sent plus
   * the PTTL it returned, so never later than the window's real end (a window lost and started again by
   * another replica ends later still). While it is known, a call needs no PTTL: one Redis command less
   * per call.
   */
  private readonly windowEnds = new Map<string, number>();

  constructor(
    private readonly core: CoreEnv,
    @Inject(REQUEST_REDIS) redis: RedisClient,
    turn: CorkedTurn,
    private readonly leases: QuotaLeases = new QuotaLeases(),
  ) {
    this.batches = new TickBatcher((batch) => this.commit(batch), { schedule: turn.schedule });
    if (!('triggerGate' in redis)) redis.defineCommand('triggerGate', { numberOfKeys: 1, lua: GATE_SCRIPT });
    this.redis = redis as GateRedis;
  }

  /** The trigger's pass on a place this replica holds leased, without a promise; undefined: `pass` must ask. */
  passOnLease(entry: GateEntry): GateResult | undefined {
    const leased = this.leases.take(entry.botId, entry.limit);
    return leased && { limit: entry.limit, count: leased.count, resetMs: leased.resetMs };
  }

  /** Rejects with RedisUnavailableError when Redis cannot be asked. */
  pass(entry: GateEntry): Promise<GateResult> {
    const leased = this.passOnLease(entry);
    if (leased) return Promise.resolve(leased);
    const lease = this.leases.pendingLease(entry.botId);
    if (lease) return lease.then(() => this.pass(entry));
    return this.batches.submit(entry);
  }

  private async commit(batch: GateEntry[]): Promise<GateResult[]> {
    const byBot = new Map<string, number[]>();
    batch.forEach((entry, i) => {
      const places = byBot.get(entry.botId);
      if (places) places.push(i);
      else byBot.set(entry.botId, [i]);
    });
    const results = new Array<GateResult>(batch.length);
    const leaseCalls: Array<() => void> = []; // ended once answered, or given up on: no trigger waits longer
    try {
      await withTimeout(
        Promise.all([...byBot].map(([botId, indexes]) => this.commitBot(botId, indexes, batch[indexes[0]].limit, results, leaseCalls))),
        this.core.REDIS_COMMAND_TIMEOUT_MS,
        'checking the trigger quota',
      );
    } finally {
      leaseCalls.forEach((end) => end());
    }
    return results;
  }

  private async commitBot(botId: string, indexes: number[], limit: number, results: GateResult[], leaseCalls: Array<() => void>): Promise<void> {
    const wanted = this.leases.wanted(botId, limit, indexes.length);
    const askedAt = Date.now();
    if (wanted > 0) leaseCalls.push(this.leases.asked(botId));
    const reply = await this.redis.triggerGate(triggerQuotaKey(this.core, botId), QUOTA_WINDOW_MS, indexes.length, limit, wanted, this.knownWindowLeft(botId, askedAt));
    const count = Number(reply[0]);
    const resetMs = Number(reply[1]);
    this.leases.grant(botId, limit, count, Number(reply[2]), resetMs, askedAt);
    this.rememberWindow(botId, askedAt + resetMs);
    indexes.forEach((index, place) => {
      results[index] = { limit, count: count - indexes.length + place + 1, resetMs };
    });
  }

  /** Ms left in the bot's window as last heard, for the script to use instead of PTTL; 0: ask Redis. */
  private knownWindowLeft(botId: string, now: number): number {
    const end = this.windowEnds.get(botId);
    if (end === undefined) return 0;
    const left = end - now;
    if (left >= KNOWN_WINDOW_MIN_LEFT_MS) return left;
    this.windowEnds.delete(botId);
    return 0;
  }

  private rememberWindow(botId: string, endsAt: number): void {
    if (this.windowEnds.size >= KNOWN_WINDOWS_MAX && !this.windowEnds.has(botId)) this.windowEnds.clear();
    this.windowEnds.set(botId, endsAt);
  }
}
