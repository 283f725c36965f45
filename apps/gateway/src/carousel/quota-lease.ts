import { Injectable } from '@nestjs/common';

/** How long one slice of a bot's demand lasts: a lease asks for what the last slice used. */
export const DEMAND_SLICE_MS = 100;
/** A lease holds at most this share of a bot's quota, so other replicas are never starved for long. */
export const LEASE_SHARE_OF_LIMIT = 1 / 50;

/** A trigger admitted from a lease: its place in the bot's window and the time left in it. */
export interface LeasedPass {
  count: number;
  resetMs: number;
}

interface Lease {
  limit: number;
  /** The window's place of the lease's next trigger. */
  next: number;
  left: number;
  /** When (Date.now) the window resets, or earlier: the lease is void then. */
  endsAt: number;
}

interface Demand {
  sliceStart: number;
  current: number;
  previous: number;
}

/**
 * Places in a bot's quota window taken from Redis ahead of the triggers that will use them, so that a
 * busy bot's triggers pass the quota in memory instead of costing a Redis round trip each. A lease is
 * what this replica's triggers of the bot used in the last DEMAND_SLICE_MS, at most
 * LEASE_SHARE_OF_LIMIT of the quota: a bot triggering rarely, or with a small quota, gets none and every
 * trigger asks Redis as before.
 *
 * Leased places are counted in Redis when taken, so all replicas together never pass more than the
 * quota. A place leased and not used before its window ends is lost to the bot, and another replica may
 * refuse a trigger while this one holds places: both are bounded by one lease per replica.
 */
@Injectable()
export class QuotaLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly demand = new Map<string, Demand>();
  /** Bots whose lease call is out: resolved once its answer is granted (or the call failed). */
  private readonly asking = new Map<string, Promise<void>>();
  /** The clock (unit tests set their own). */
  now: () => number = Date.now;

  /** Takes a place from the bot's lease, if it holds one under this limit; undefined: Redis must be asked. */
  take(botId: string, limit: number): LeasedPass | undefined {
    const lease = this.leases.get(botId);
    if (!lease) return undefined;
    const now = this.now();
    if (lease.limit !== limit || now >= lease.endsAt) {
      this.leases.delete(botId);
      return undefined;
    }
    this.noteUse(botId, 1, now);
    const pass = { count: lease.next++, resetMs: lease.endsAt - now };
    if (--lease.left === 0) this.leases.delete(botId);
    return pass;
  }

  /** How many places to lease for the bot beyond the `passing` triggers now asking Redis. */
  wanted(botId: string, limit: number, passing: number): number {
    const now = this.now();
    this.noteUse(botId, passing, now);
    if (this.leases.has(botId) || this.asking.has(botId)) return 0;
    return Math.min(this.demand.get(botId)!.previous, Math.floor(limit * LEASE_SHARE_OF_LIMIT));
  }

  /**
   * Notes that a call asking for the bot's lease is out; the function returned ends that (after
   * `grant`, or when the call failed). Meanwhile the bot's triggers without a key wait for it
   * (`pendingLease`) instead of each sending a call of their own, and no second lease is asked for.
   */
  asked(botId: string): () => void {
    let answered!: () => void;
    const call = new Promise<void>((resolve) => (answered = resolve));
    this.asking.set(botId, call);
    return () => {
      if (this.asking.get(botId) === call) this.asking.delete(botId);
      answered();
    };
  }

  /** The bot's lease call that is out, if any. */
  pendingLease(botId: string): Promise<void> | undefined {
    return this.asking.get(botId);
  }

  /**
   * Redis granted `granted` places after `countBefore` (the count after the triggers that asked), in a
   * window resetting `resetMs` after `askedAt`: the time the call was sent, so that the lease ends no
   * later than the window does.
   */
  grant(botId: string, limit: number, countBefore: number, granted: number, resetMs: number, askedAt: number): void {
    if (!(granted > 0)) return;
    this.leases.set(botId, { limit, next: countBefore + 1, left: granted, endsAt: askedAt + resetMs });
  }

  private noteUse(botId: string, n: number, now: number): void {
    let d = this.demand.get(botId);
    if (!d) {
      d = { sliceStart: now, current: 0, previous: 0 };
      this.demand.set(botId, d);
    }
    if (now - d.sliceStart >= DEMAND_SLICE_MS) {
      d.previous = now - d.sliceStart < 2 * DEMAND_SLICE_MS ? d.current : 0;
      d.current = 0;
      d.sliceStart = now;
    }
    d.current += n;
  }
}
