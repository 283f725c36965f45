import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { CoreEnv, DEFAULT_WORKER_CONCURRENCY, WhatsAppEnv, WorkerEnv } from '@platform/config';
import { TickBatcher } from '@platform/common';
import { type RedisClient, type RedisTarget, createRequestRedis, whatsappPaceKeys, withTimeout } from '@platform/queue';
import { PACE_SCRIPT, SHARE_SCRIPT, SLOW_DOWN_SCRIPT } from './pace-scripts.js';

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
 *    holding a claimed message. A job whose slot is at most HOLD_IN_PROCESS_MS ahead waits in the
 *    worker's memory instead (all but a tenth of the worker's concurrency at most, so a trigger or
 *    another number's job still finds a free place at once) and goes at its slot without asking again: at a high rate nearly every job
 *    waits a little, and the delayed set would cost each one a BullMQ round trip (move to delayed,
 *    promote, fetch again) that cost more than its send. Waits end in WAKE_BUCKET_MS buckets (one timer per
 *    bucket), so a bucket's jobs claim, count and send together in a few batched calls.
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
 * reserved before, and comes back to its rate in steps (SLOW_DOWN_MS).
 *
 * A job let go now, or held in memory for a slot of the current second, gets its send counted at once
 * when the second has room (a SendPermit): it sends without the count's call, or gives the permit back
 * (`release`) when it ends without sending. What the worker's concurrent jobs ask of one number within
 * PACE_BATCH_MS (reservations, sends to count) goes to Redis in one script call (pace-scripts.ts), and the
 * sends answered and permits given back since ride along with it (alone after REPORT_WAIT_MS): a message
 * costs one ask on the happy path, where it cost three (reserve, count, answered), each a call at low load. Keys, all under one Redis Cluster hash
 * slot: `whatsapp-pace:{<phone-number-id>}` (a hash), `…:held` and `…:sending` (a sorted set: sends in
 * flight → when they stop counting, the HTTP timeout after they began, should a worker die before its
 * answer).
 */
export const EDGE_MARGIN_MS = 150;

/** A job whose slot is at most this far ahead waits for it in the worker's memory rather than in the delayed set. */
export const HOLD_IN_PROCESS_MS = 1000;

/**
 * A job waiting in the delayed set for a slot more than 2 × this ahead comes back this much early: the
 * trip back (promotion, BullMQ's fetch, the reservation's call) takes time, and a job back after its
 * second's usable part has passed gets a new slot, leaving its own unused and making a second trip. Back
 * early, it waits for its slot in memory (or, with no place there, once more in the delayed set, then
 * without the lead).
 */
export const DELAYED_LEAD_MS = 100;

/** The pacer's asks (reservations, counts, landed sends) wait this long for others to share their script call. */
export const PACE_BATCH_MS = 5;

/**
 * Answered sends and unused permits are reported with the number's next script call, or on their own
 * after this long (sooner near the end of a second, so the next second does not count them in flight).
 */
export const REPORT_WAIT_MS = 25;

/**
 * A permit is used only this long after its job was let go; later (a slow claim, a loaded host) it is
 * given back and the send is counted when it is made, so that it stops counting (the in-flight expiry,
 * the HTTP timeout plus a second after the permit) only after the request's own timeout.
 */
export const PERMIT_FRESH_MS = 800;

/**
 * Waits in memory end on multiples of this (rounded up): one timer per bucket, and its jobs go on together,
 * sharing their claim, send-count and publish statements. The batch is what pacing's cost per message
 * rests on: at 10 ms a bucket held about 2 jobs of a worker at 500/s and paced sending cost 1.29× unpaced
 * (`bench:pacing-cost`); at 50 ms, 1.01–1.08×. A job goes at most this long after its slot, still inside
 * the second's EDGE_MARGIN_MS, so the per-second bound and the rate used are unchanged.
 */
export const WAKE_BUCKET_MS = 50;

/**
 * The 130429 rule: the number's rate is multiplied by SLOW_DOWN_FACTOR, then doubles back every
 * SLOW_DOWN_MS without a new 130429 until it is the configured rate again (a 130429 while recovering lowers
 * it again from where it is). 130429s within SLOW_DOWN_SETTLE_MS of the last lowering count as one: they
 * answer sends made before it.
 */
export const SLOW_DOWN_MS = 10_000;
export const SLOW_DOWN_FACTOR = 0.5;
export const SLOW_DOWN_SETTLE_MS = 1_000;

/**
 * A send counted in the number's second when its job was let go (`reserve`): the job sends with it
 * without asking Redis again (`sendCounted`), or gives it back unused (`release`).
 */
export interface SendPermit {
  readonly phoneNumberId: string;
  readonly rate: number;
  /** Its member in the number's `…:sending` set. */
  readonly id: string;
  /** Date.now() when the job was let go with it. */
  readonly at: number;
  /** Used or given back. */
  settled: boolean;
}

/**
 * Go now (`heldMs`: after waiting that long in memory for the slot; `permit`: its send already counted),
 * or wait `waitMs` in the delayed set and ask again.
 */
export type PaceDecision = { go: true; heldMs?: number; permit?: SendPermit } | { go: false; waitMs: number };

/** What `sendCounted` did: sent (with the send's result), or not, the second being full (try again in waitMs). */
export type CountedSend<T> = { sent: true; value: T } | { sent: false; waitMs: number };

/** Token of a Redis connection for the pacer to use instead of opening its own (unit tests give a fake one). */
export const PACING_REDIS = Symbol('PACING_REDIS');

const scriptCalls = new Counter({
  name: 'whatsapp_pace_script_calls_total',
  help: 'Pace script calls to Redis (each carries the reservations, counts and answered sends of one number batched together)',
});

const takeWaits = new Counter({
  name: 'whatsapp_pace_take_waits_total',
  help: "Sends ready to go that found their number's second full at the count and waited for the next",
});

const permitSends = new Counter({
  name: 'whatsapp_pace_permit_sends_total',
  help: 'Sends made with the count their reservation took (no count call before the request)',
});

/** A Redis call of the pacer takes at most this long; then the job is treated like any Redis outage. */
const REDIS_TIMEOUT_MS = 2000;

/** One question to the pacer about a number: reserve a slot for a job, take a send, or carry its pending reports (`report`). */
interface PaceAsk {
  phoneNumberId: string;
  rate: number;
  kind: 'reserve' | 'take' | 'report';
  id: string;
}

/** A reserve ask's answer: the wait (0 go, negative in memory, positive delayed set) and whether its send was counted. */
interface Answer {
  wait: number;
  permit: boolean;
}

/** Sends of a number answered, and permits given back unused, not yet told to Redis. */
interface Reports {
  rate: number;
  landed: string[];
  released: string[];
}

/** Reports sent in one script call at most (the Lua unpacks them as one command's arguments). */
const MAX_REPORTS = 400;

type PacingRedis = RedisClient & {
  whatsappPace(state: string, held: string, sending: string, ...args: Array<string | number>): Promise<Array<number | string>>;
  whatsappSlowDown(state: string, factor: number, stepMs: number, settleMs: number): Promise<string>;
  whatsappShare(state: string): Promise<string>;
};

@Injectable()
export class SenderPacer implements OnApplicationShutdown {
  private readonly logger = new Logger('SenderPacer');
  private readonly redis: PacingRedis;
  /** A send stops counting this long after it began, should its answer never be reported (its worker died). */
  private readonly inFlightMs: number;
  // A window of PACE_BATCH_MS rather than one event-loop turn: at a few hundred sends a second a worker's
  // jobs reach the pacer a turn apart (each fetched, woken or answered on its own), so a turn's batch
  // would mostly be one ask, and the script call per ask was the pacer's main cost.
  private readonly asks = new TickBatcher<PaceAsk, Answer>((batch) => this.ask(batch), { schedule: (flush) => setTimeout(flush, PACE_BATCH_MS) });
  /** Per number, reports waiting for its next script call (REPORT_WAIT_MS at most). */
  private readonly reports = new Map<string, Reports>();
  private reportTimer: NodeJS.Timeout | undefined;
  /** Per number, the busiest share of its rate seen counted in a second, this second and the one before. */
  private readonly load = new Map<string, { sec: number; busiest: number; before: number }>();
  /** Numbers this worker slowed down, until when (Date.now). */
  private readonly slowed = new Map<string, number>();
  private readonly target: RedisTarget;
  /** Off (WHATSAPP_PACING=false): nothing is paced; only for measuring what pacing costs. */
  private readonly pacing: boolean;
  /** Jobs this process may keep waiting in memory for their slots at once; how many do now. */
  private readonly maxHeld: number;
  private heldNow = 0;
  /** Wake-up time (a multiple of WAKE_BUCKET_MS) → the waits that end then. */
  private readonly wakes = new Map<number, Array<() => void>>();

  constructor(env: CoreEnv, whatsapp: WhatsAppEnv, @Optional() @Inject(PACING_REDIS) connection?: RedisClient, @Optional() worker?: WorkerEnv) {
    this.target = env;
    this.pacing = whatsapp.WHATSAPP_PACING ?? true;
    if (!this.pacing) this.logger.warn('WHATSAPP_PACING=false: sends are not paced, Meta may refuse them (130429); for measurements only');
    const concurrency = worker?.WORKER_CONCURRENCY ?? DEFAULT_WORKER_CONCURRENCY;
    this.maxHeld = Math.max(1, concurrency - Math.ceil(concurrency / 10));
    // Its own connection, queueing commands while it connects (each call is bounded by withTimeout),
    // so the first jobs after start-up do not fail before it is ready.
    const redis = connection ?? createRequestRedis(env, 'channel-worker-pacing', { enableOfflineQueue: true });
    redis.on('error', () => undefined); // surfaced per call
    redis.defineCommand('whatsappPace', { numberOfKeys: 3, lua: PACE_SCRIPT });
    redis.defineCommand('whatsappSlowDown', { numberOfKeys: 1, lua: SLOW_DOWN_SCRIPT });
    redis.defineCommand('whatsappShare', { numberOfKeys: 1, lua: SHARE_SCRIPT });
    this.redis = redis as PacingRedis;
    this.inFlightMs = whatsapp.WHATSAPP_TIMEOUT_MS + 1000;
  }

  /**
   * Before a job claims its message: whether job `jobId` may go on to send through `phoneNumberId` now,
   * at `rate` messages per second, or how long it waits for the slot it now holds. A number that used
   * less than half its rate in this second and the one before needs no slots (there is nothing to
   * spread out): the job goes without asking Redis, and the count before the send still bounds it.
   */
  async reserve(phoneNumberId: string, jobId: string, rate: number): Promise<PaceDecision> {
    if (!this.pacing || this.farBelowRate(phoneNumberId)) return { go: true };
    const { wait, permit } = await this.asks.submit({ phoneNumberId, rate, kind: 'reserve', id: jobId });
    if (wait > 0) return { go: false, waitMs: wait > 2 * DELAYED_LEAD_MS ? wait - DELAYED_LEAD_MS : Math.max(1, wait) };
    if (wait < 0) {
      // Its slot is near: it waits here, then goes at its slot without asking again.
      this.heldNow++;
      try {
        await this.wake(-wait);
      } finally {
        this.heldNow--;
      }
    }
    const decision: PaceDecision = wait < 0 ? { go: true, heldMs: -wait } : { go: true };
    if (permit) decision.permit = { phoneNumberId, rate, id: `r:${jobId}`, at: Date.now(), settled: false };
    return decision;
  }

  /** Gives back a permit its job did not send with (nothing to do if it did, or there is none). */
  release(permit: SendPermit | undefined): void {
    if (!permit || permit.settled) return;
    permit.settled = true;
    this.report(permit.phoneNumberId, permit.rate, 'released', permit.id);
  }

  /**
   * Runs `send` (one request to the Cloud API through `phoneNumberId`) as soon as a second has sent
   * fewer than `rate`, counting it in every second until its answer is back. Waits here for such a
   * second up to `maxWaitMs`; beyond that, does not run it and says how long until the next second.
   */
  async sendCounted<T>(phoneNumberId: string, rate: number, send: () => Promise<T>, maxWaitMs = 0, permit?: SendPermit): Promise<CountedSend<T>> {
    if (!this.pacing) return { sent: true, value: await send() };
    let id: string;
    if (permit && !permit.settled && permit.phoneNumberId === phoneNumberId && Date.now() - permit.at <= PERMIT_FRESH_MS) {
      // Counted when its job was let go: no second call for it.
      permit.settled = true;
      id = permit.id;
      permitSends.inc();
    } else {
      this.release(permit);
      id = randomUUID();
      const deadline = Date.now() + maxWaitMs;
      for (;;) {
        const { wait } = await this.asks.submit({ phoneNumberId, rate, kind: 'take', id });
        if (wait === 0) break;
        takeWaits.inc();
        if (Date.now() + wait > deadline) return { sent: false, waitMs: wait };
        await sleep(wait);
      }
    }
    try {
      return { sent: true, value: await send() };
    } finally {
      // Reported with the number's next call (a send not reported stops counting when it expires).
      this.report(phoneNumberId, rate, 'landed', id);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    await this.flushReports().catch(() => undefined);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * Keeps a report (a send answered, a permit unused) for the number's next script call: at a high rate
   * one is made every few ms anyway, and a report needs no answer. Alone, it goes after REPORT_WAIT_MS,
   * or in the next batch window when the second ends sooner (a send reported after the next second began
   * counts in that second too: safe, but a place lost).
   */
  private report(phoneNumberId: string, rate: number, kind: 'landed' | 'released', id: string): void {
    let pending = this.reports.get(phoneNumberId);
    if (!pending) this.reports.set(phoneNumberId, (pending = { rate, landed: [], released: [] }));
    pending[kind].push(id);
    if (this.reportTimer) return;
    const toSecondEnd = 1000 - (Date.now() % 1000);
    const waitMs = toSecondEnd - PACE_BATCH_MS * 2 > REPORT_WAIT_MS ? REPORT_WAIT_MS : 0;
    this.reportTimer = setTimeout(() => {
      this.reportTimer = undefined;
      this.flushReports().catch((err: unknown) => {
        this.logger.warn(`finished sends could not be reported (${(err as Error).message}); they count until they expire`);
      });
    }, waitMs);
  }

  /** One `report` ask per number with reports left: the batch window's call carries them. */
  private async flushReports(): Promise<void> {
    await Promise.all([...this.reports].map(([phoneNumberId, { rate }]) => this.asks.submit({ phoneNumberId, rate, kind: 'report', id: '' })));
  }

  /**
   * Meta said the number's throughput is used up (130429): its real tier is below the configured rate.
   * The rate is multiplied by SLOW_DOWN_FACTOR and doubles back every SLOW_DOWN_MS (the rule above); the share in force.
   */
  async slowDown(phoneNumberId: string): Promise<number> {
    const share = Number(
      await withTimeout(this.redis.whatsappSlowDown(whatsappPaceKeys(this.target, phoneNumberId).state, SLOW_DOWN_FACTOR, SLOW_DOWN_MS, SLOW_DOWN_SETTLE_MS), REDIS_TIMEOUT_MS, 'sender slow-down'),
    );
    // Until the share is back to 1, every reservation asks Redis (the shortcut below would skip the slowed rate).
    this.slowed.set(phoneNumberId, Date.now() + SLOW_DOWN_MS * Math.max(1, Math.ceil(Math.log2(1 / share))));
    return share;
  }

  /** The share of its rate `phoneNumberId` may use now: below 1 while a slow-down (above) recovers. */
  async share(phoneNumberId: string): Promise<number> {
    if (!this.pacing) return 1;
    return Number(await withTimeout(this.redis.whatsappShare(whatsappPaceKeys(this.target, phoneNumberId).state), REDIS_TIMEOUT_MS, 'sender share'));
  }

  /** Resolves once `ms` have passed, rounded up to the next WAKE_BUCKET_MS: one timer per bucket. */
  private wake(ms: number): Promise<void> {
    const at = Math.ceil((Date.now() + ms) / WAKE_BUCKET_MS) * WAKE_BUCKET_MS;
    return new Promise((resolve) => {
      const bucket = this.wakes.get(at);
      if (bucket) return void bucket.push(resolve);
      this.wakes.set(at, [resolve]);
      setTimeout(() => {
        const due = this.wakes.get(at) ?? [];
        this.wakes.delete(at);
        for (const r of due) r();
      }, at - Date.now());
    });
  }

  /** The number's pending reports, up to MAX_REPORTS (the rest wait for the next call). */
  private takeReports(phoneNumberId: string): { landed: string[]; released: string[] } {
    const pending = this.reports.get(phoneNumberId);
    if (!pending) return { landed: [], released: [] };
    const landed = pending.landed.splice(0, MAX_REPORTS);
    const released = pending.released.splice(0, MAX_REPORTS - landed.length);
    if (pending.landed.length + pending.released.length === 0) this.reports.delete(phoneNumberId);
    else if (!this.reportTimer) this.reportTimer = setTimeout(() => ((this.reportTimer = undefined), void this.flushReports().catch(() => undefined)), PACE_BATCH_MS);
    return { landed, released };
  }

  private noteLoad(phoneNumberId: string, share: number): void {
    const sec = Math.floor(Date.now() / 1000);
    const load = this.load.get(phoneNumberId);
    if (!load) this.load.set(phoneNumberId, { sec, busiest: share, before: 1 });
    else if (load.sec === sec) load.busiest = Math.max(load.busiest, share);
    else {
      load.before = load.sec === sec - 1 ? load.busiest : 0;
      load.sec = sec;
      load.busiest = share;
    }
  }

  private farBelowRate(phoneNumberId: string): boolean {
    const load = this.load.get(phoneNumberId);
    const now = Date.now();
    if (!load || (this.slowed.get(phoneNumberId) ?? 0) > now) return false;
    const sec = Math.floor(now / 1000);
    if (load.sec === sec) return load.busiest < 0.5 && load.before < 0.5;
    return load.sec === sec - 1 && load.busiest < 0.5;
  }

  /** A window's asks: one script call per number, all sent together, with its pending reports; one answer per ask (go for a report). */
  private async ask(batch: PaceAsk[]): Promise<Answer[]> {
    const byNumber = new Map<string, number[]>();
    batch.forEach((a, i) => {
      const indexes = byNumber.get(a.phoneNumberId);
      if (indexes) indexes.push(i);
      else byNumber.set(a.phoneNumberId, [i]);
    });
    const answers = batch.map((): Answer => ({ wait: 0, permit: false }));
    // Places for jobs to wait in memory, shared out between the window's calls (a soft bound: calls of
    // two windows in flight at once may both use the same places).
    let free = Math.max(0, this.maxHeld - this.heldNow);
    const calls = [...byNumber].map(async ([phoneNumberId, indexes]) => {
      const of = (kind: PaceAsk['kind']) => indexes.filter((i) => batch[i].kind === kind);
      const takes = of('take');
      const reserves = of('reserve');
      const asking = [...takes, ...reserves];
      const { landed, released } = this.takeReports(phoneNumberId);
      if (asking.length + landed.length + released.length === 0) return;
      const room = Math.min(free, reserves.length);
      free -= room;
      const { state, held, sending } = whatsappPaceKeys(this.target, phoneNumberId);
      const ids = [...landed, ...released, ...asking.map((i) => batch[i].id)];
      scriptCalls.inc();
      // Reports lost with a failed call count until they expire (safe); the asks fail like any outage.
      const reply = (
        await this.redis.whatsappPace(state, held, sending, batch[indexes[0]].rate, EDGE_MARGIN_MS, this.inFlightMs, HOLD_IN_PROCESS_MS, room, landed.length, released.length, takes.length, ...ids)
      ).map(Number);
      asking.forEach((i, k) => (answers[i] = { wait: reply[k], permit: false }));
      reserves.forEach((i, k) => (answers[i].permit = reply[asking.length + 2 + k] === 1));
      // The count is noted when this worker's sends moved it (counted, answered), as the shortcut above assumes.
      if (takes.length > 0 || landed.length > 0 || reserves.some((i) => answers[i].permit)) this.noteLoad(phoneNumberId, reply[asking.length] / reply[asking.length + 1]);
    });
    await withTimeout(Promise.all(calls), REDIS_TIMEOUT_MS, 'sender pacing');
    return answers;
  }
}
