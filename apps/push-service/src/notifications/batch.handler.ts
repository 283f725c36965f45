import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { JobLockEnv, PushEnv } from '@platform/config';
import { PushBatchJob } from '@platform/contracts';
import { BatchCounts, DeviceRepository, NotificationRepository, PushNotification } from '@platform/database';
import { StalledTooOftenError, isFinalAttempt } from '@platform/queue';
import { LoadedPushConfig, PushConfigService } from '../service-accounts/push-config.service.js';
import { fcmBodyParts } from '../fcm/fcm-message.js';
import { DeliveryOutcome, FcmSender } from '../fcm/fcm-sender.js';
import { FcmConfigError } from '../fcm/fcm-config.error.js';
import { CredentialsRejectedError } from '../service-accounts/credentials-rejected.error.js';
import { TransientPushError } from '../fcm/transient-push.error.js';
import type { SendGuard } from '../fcm/send-guard.js';
import { FcmPacer } from '../fcm/fcm-pacer.js';
import { BatchProgressStore, DeviceOutcome, OutcomeRecorder } from './batch-progress.store.js';
import { sendPaced } from './paced-send.js';
import { BatchLease, batchLeaseMs, requestWindowMs } from './batch-lease.js';
import { BatchTakenOverError } from './batch-taken-over.error.js';

/** How long requests queued in the pool wait while the batch's lease is being renewed (after a stop) before they go. */
const LEASE_CONFIRM_HOLD_MS = 50;

/** How often giving up on a batch looks whether the run holding it has ended (it drops its lease when done). */
const GIVE_UP_POLL_MS = 1000;

/**
 * Sends one batch of a notification. Devices that already have an outcome (from an earlier run of
 * this batch) are skipped; devices still failing transiently make the job throw, so BullMQ runs it
 * again later for those only; on the last run they count as failed. The batch's counts land once.
 * A run holds the batch with a lease (BatchLease), so a run that takes the job over from a stalled
 * process waits until that process has recorded what it sent, and so does giving up on the batch.
 * A run sends (a chunk, or a retry of one device) only while it holds the lease.
 */
@Injectable()
export class BatchHandler {
  private readonly logger = new Logger('PushBatch');
  private readonly leaseMs: number;
  private readonly renewLeaseEveryMs: number;
  private readonly requestWindowMs: number;

  constructor(
    private readonly notifications: NotificationRepository,
    private readonly devices: DeviceRepository,
    private readonly configs: PushConfigService,
    private readonly sender: FcmSender,
    private readonly progress: BatchProgressStore,
    private readonly pacer: FcmPacer,
    locks: JobLockEnv,
    env: PushEnv,
  ) {
    this.leaseMs = batchLeaseMs(locks.WORKER_LOCK_MS, env.FCM_TIMEOUT_MS);
    this.renewLeaseEveryMs = Math.floor(locks.WORKER_LOCK_MS / 2);
    this.requestWindowMs = requestWindowMs(env.FCM_TIMEOUT_MS);
  }

  /**
   * `token`: the job's lock token, to delay the job (BullMQ's delayed set, no attempt used) when its
   * Firebase project is held after a 429 for longer than a batch waits in its job.
   */
  async handle(job: Job<PushBatchJob>, token?: string): Promise<string> {
    const { notificationId, seq } = job.data;
    const notification = await this.notifications.findById(notificationId);
    if (!notification) return 'skipped: notification deleted';
    const lease = await this.progress.lease(notificationId, seq, this.leaseMs, this.renewLeaseEveryMs);
    if (!(lease instanceof BatchLease)) return this.waitForLease(job, lease.heldForMs, token);
    try {
      return await this.run(job, notification, lease, token);
    } finally {
      await lease.release().catch(() => undefined); // a lease not ended runs out by itself
    }
  }

  private async run(job: Job<PushBatchJob>, notification: PushNotification, lease: BatchLease, token?: string): Promise<string> {
    const { notificationId, seq, deviceIds } = job.data;
    const started = Date.now();
    // A run whose job could not be marked completed (its lock had lapsed) may have counted the batch and
    // cleared its outcomes already: sending the devices again would go by the cleared outcomes.
    if (await this.notifications.isBatchCounted(notificationId, seq)) {
      await this.progress.clear(notificationId, seq);
      return 'already counted';
    }
    const done = await this.progress.read(notificationId, seq);
    const todo = deviceIds.filter((id) => !done.has(id));
    const recorder = this.progress.recorder(notificationId, seq);
    const lastRun = isFinalAttempt(job);

    let unresolved = 0;
    let delayMs: number | undefined;
    try {
      if (todo.length > 0) {
        if (notification.status === 'failed') todo.forEach((id) => recorder.record(id, 'failed'));
        else ({ unresolved, delayMs } = await this.send(notification, todo, recorder, lastRun, lease));
      }
    } catch (err) {
      await recorder.flush().catch(() => undefined); // outcomes learnt before the error still count (and are not sent again)
      if (err instanceof BatchTakenOverError) this.logger.warn(`notification ${notificationId} batch ${seq}: ${err.message}; this run stopped sending`);
      throw err;
    }
    await recorder.flush();
    const sentAt = Date.now();
    if (delayMs !== undefined) {
      if (!token) throw new Error(`FCM quota of the project held for ${delayMs} ms; the batch runs again later`);
      // The outcomes so far are recorded: the run after the delay sends the rest only.
      this.pacer.waited('delayed', delayMs);
      await job.moveToDelayed(Date.now() + delayMs, token);
      throw new DelayedError();
    }
    if (unresolved > 0) throw new Error(`${unresolved} of ${deviceIds.length} devices still failing transiently; the batch runs again later`);

    // Every device now has its outcome: recorded by an earlier run (done) or by this one; no need to read them back.
    const outcomes = new Map([...done, ...recorder.outcomes]);
    const counts = await this.recordOutcomes(notification.botId, outcomes);
    const counted = await this.notifications.completeBatch(notificationId, seq, counts);
    await this.progress.clear(notificationId, seq);
    this.logger.debug(`notification ${notificationId} batch ${seq}: ${todo.length} sent in ${sentAt - started} ms, recorded in ${Date.now() - sentAt} ms`);
    return `${counted ? 'counted' : 'already counted'}: ${JSON.stringify(counts)}`;
  }

  /**
   * The batch job's last attempt threw an error of its own (not a device's: Postgres or Redis down,
   * the config unreadable, …), or BullMQ failed it for stalling too often: the devices without an
   * outcome count as failed, and the batch is counted through the same exactly-once completeBatch as
   * always, so `pending` reaches 0.
   * It first takes the batch's lease, waiting while another run holds it (a process stopped mid-send
   * whose job was failed meanwhile may wake and send, record and count its devices): what that run
   * learns is counted, not overwritten with failures, and once the lease is taken no run sends any
   * more of the batch. If the lease cannot be taken (Redis down), it counts without it.
   * If the recorded outcomes cannot be read, every device of the batch counts as failed.
   */
  async giveUp(job: Job<PushBatchJob>, err: unknown): Promise<void> {
    if (err instanceof BatchTakenOverError) return; // the batch is the other run's to finish
    const { notificationId, seq } = job.data;
    const notification = await this.notifications.findById(notificationId);
    if (!notification) return;
    const lease = await this.leaseToGiveUp(notificationId, seq);
    try {
      if (await this.notifications.isBatchCounted(notificationId, seq)) {
        // The run that held the batch counted it (its job had been failed while its process was stopped).
        await this.progress.clear(notificationId, seq).catch(() => undefined);
        this.logger.warn(`notification ${notificationId} batch ${seq}: its job failed (${describeGiveUp(job, err)}) but the run that held it counted it; nothing added`);
        return;
      }
      await this.countAsGivenUp(job, notification, err);
    } finally {
      await lease?.release().catch(() => undefined);
    }
  }

  /** The batch's lease for giving up, once no other run holds it; undefined when Redis cannot say. */
  private async leaseToGiveUp(notificationId: string, seq: number): Promise<BatchLease | undefined> {
    let told = false;
    for (;;) {
      let lease: BatchLease | { heldForMs: number };
      try {
        lease = await this.progress.lease(notificationId, seq, this.leaseMs, this.renewLeaseEveryMs);
      } catch (err) {
        this.logger.warn(`notification ${notificationId} batch ${seq}: its lease could not be taken to give up (${(err as Error).message}); counting without it`);
        return undefined;
      }
      if (lease instanceof BatchLease) return lease;
      if (!told) {
        told = true;
        this.logger.warn(`notification ${notificationId} batch ${seq}: another run holds the batch for ${lease.heldForMs} ms more (its process stopped mid-send); giving up waits for it`);
      }
      await sleep(Math.min(lease.heldForMs, GIVE_UP_POLL_MS));
    }
  }

  private async countAsGivenUp(job: Job<PushBatchJob>, notification: PushNotification, err: unknown): Promise<void> {
    const { notificationId, seq, deviceIds } = job.data;
    let outcomes: Map<string, DeviceOutcome>;
    let unknown = '';
    try {
      outcomes = await this.progress.read(notificationId, seq);
    } catch (readErr) {
      outcomes = new Map();
      unknown = ` (the outcomes already recorded could not be read: ${(readErr as Error).message})`;
    }
    let unresolved = 0;
    for (const id of deviceIds) {
      if (outcomes.has(id)) continue;
      outcomes.set(id, 'failed');
      unresolved++;
    }
    const counts = await this.recordOutcomes(notification.botId, outcomes);
    const counted = await this.notifications.completeBatch(notificationId, seq, counts);
    await this.progress.clear(notificationId, seq).catch(() => undefined);
    this.logger.error(
      `notification ${notificationId} batch ${seq}: gave up (${describeGiveUp(job, err)}); ` +
        `${unresolved} of ${deviceIds.length} devices had no outcome and count as failed${unknown}` +
        `${counted ? '' : '; the batch had already been counted, nothing added'}`,
    );
  }

  /**
   * Sends to `ids` at the pace of the project's FCM quota; returns how many are still unresolved (only
   * before the last run), and `delayMs` when the project is held for longer than a batch waits in its
   * job (the devices not sent yet have no outcome: the job runs again for them after the delay).
   */
  private async send(n: PushNotification, ids: string[], recorder: OutcomeRecorder, lastRun: boolean, lease: BatchLease): Promise<{ unresolved: number; delayMs?: number }> {
    let config: LoadedPushConfig | null;
    try {
      config = await this.configs.load(n.botId);
    } catch (err) {
      if (!(err instanceof CredentialsRejectedError)) throw err;
      return { unresolved: await this.failAll(n, ids, recorder, err.message) };
    }
    if (!config) return { unresolved: await this.failAll(n, ids, recorder, 'The bot has no push notification configuration any more (service account removed)') };

    const live = await this.devices.findLive(n.botId, ids);
    const liveIds = new Set(live.map((d) => d.id));
    for (const id of ids) if (!liveIds.has(id)) recorder.record(id, 'skipped');

    const ttl = remainingTtl(n);
    if (ttl !== undefined && ttl < 0) {
      live.forEach((d) => recorder.record(d.id, 'failed'));
      return { unresolved: 0 };
    }
    const parts = fcmBodyParts({
      botId: n.botId,
      title: n.title,
      body: n.body,
      journeySlug: n.journeySlug,
      data: n.data as Record<string, string>,
      priority: n.priority,
      ttlSeconds: ttl,
    });

    let stop: Error | undefined;
    let takenOver: BatchTakenOverError | undefined;
    let unresolved = 0;
    const tokens = live.map((d) => d.token);
    const stopped = () => stop !== undefined;
    const deliveries: Array<Promise<void>> = [];
    const onResult = (i: number, result: DeliveryOutcome | Error) => {
      const id = live[i].id;
      if (result instanceof BatchTakenOverError) {
        takenOver ??= result; // not sent again, and no outcome: the batch is the other run's now
      } else if (!(result instanceof Error)) {
        if (result.kind !== 'unresolved') recorder.record(id, result.kind === 'invalid' ? `invalid:${result.reason}` : result.kind);
        else if (lastRun) recorder.record(id, 'failed');
        else unresolved++;
      } else if (result instanceof CredentialsRejectedError || result instanceof FcmConfigError) {
        stop ??= result;
        recorder.record(id, 'failed');
      } else if (lastRun) {
        recorder.record(id, 'failed');
      } else {
        if (!(result instanceof TransientPushError)) this.logger.error(`notification ${n.id}: ${result.message}`);
        unresolved++;
      }
    };
    // A request goes to FCM only while the lease surely outlasts it: after a stop, the run may have been
    // taken over while a retry waited or requests of a chunk were queued in the pool. No Redis round
    // trip while the timer's renewals hold; one renewal (not one per request) when they do not.
    const window = this.requestWindowMs;
    const guard: SendGuard = {
      beforeResend: () => lease.ensureHeldFor(window),
      holdMs: () => {
        if (lease.provenFor(window) || lease.isLost()) return 0;
        lease.confirm();
        return LEASE_CONFIRM_HOLD_MS;
      },
      lost: () => lease.isLost(),
      heldBack: () => lease.takenOverError(),
    };
    const paced = await sendPaced({
      count: tokens.length,
      take: async (want) => {
        await lease.ensureHeld(); // a run taken over while its process was stopped sends nothing more
        return this.pacer.take(config.projectId, config.quotaPerMinute, want);
      },
      send: (from, to, chunk) => {
        // The chunk has landed once FCM answered each of its messages once: a refused message's retry is
        // admitted by the pacer as a message of its own, so the chunk does not count on through the retries' backoff.
        let reported = false;
        const landed = () => {
          if (reported) return;
          reported = true;
          this.pacer.landed(config.projectId, chunk);
        };
        deliveries.push(this.sender.deliverMany(config, parts, tokens.slice(from, to), stopped, (i, result) => onResult(from + i, result), guard, landed).finally(landed));
      },
      stopped,
      onWait: (ms) => this.pacer.waited('in-job', ms),
    }).finally(() => Promise.all(deliveries)); // what was handed to FCM is answered (and recorded) before the job goes on or fails
    await Promise.all(deliveries);
    if (stop) {
      await this.notifications.fail(n.id, stop.message);
      this.logger.warn(`notification ${n.id} failed: ${stop.message}`);
    }
    if (takenOver) throw takenOver;
    return { unresolved, delayMs: paced.delayMs };
  }

  /** Another run holds the batch: this one waits in the delayed set until that lease ends (no attempt used). */
  private async waitForLease(job: Job<PushBatchJob>, heldForMs: number, token?: string): Promise<never> {
    const { notificationId, seq } = job.data;
    if (!token) throw new Error(`another run holds batch ${seq} for ${heldForMs} ms more; the batch runs again later`);
    this.logger.warn(`notification ${notificationId} batch ${seq}: another run still holds the batch for ${heldForMs} ms (its process stopped past its job's lock); this run waits for it`);
    await job.moveToDelayed(Date.now() + heldForMs, token);
    throw new DelayedError();
  }

  private async failAll(n: PushNotification, ids: string[], recorder: OutcomeRecorder, reason: string): Promise<number> {
    await this.notifications.fail(n.id, reason);
    ids.forEach((id) => recorder.record(id, 'failed'));
    return 0;
  }

  /** Counts the batch's outcomes and marks devices FCM called gone as dead (idempotent). */
  private async recordOutcomes(botId: string, outcomes: Map<string, DeviceOutcome>): Promise<BatchCounts> {
    const counts: BatchCounts = { sent: 0, failed: 0, invalidTokens: 0, skipped: 0 };
    const dead = new Map<string, string[]>();
    for (const [id, outcome] of outcomes) {
      if (outcome === 'sent') counts.sent++;
      else if (outcome === 'failed') counts.failed++;
      else if (outcome === 'skipped') counts.skipped++;
      else {
        counts.invalidTokens++;
        const reason = outcome.slice('invalid:'.length);
        dead.set(reason, [...(dead.get(reason) ?? []), id]);
      }
    }
    for (const [reason, ids] of dead) await this.devices.markDead(botId, ids, reason);
    return counts;
  }
}

/** Why a batch was given up, for the log. */
function describeGiveUp(job: Job<PushBatchJob>, err: unknown): string {
  if (err instanceof StalledTooOftenError) return `the job ${err.message}`;
  return `after ${job.opts.attempts ?? 1} attempts: ${(err as Error)?.message ?? err}`;
}

/** Seconds the message may still wait for an offline device; negative when it expired before its turn. */
function remainingTtl(n: PushNotification): number | undefined {
  if (n.ttlSeconds === null) return undefined;
  if (n.ttlSeconds === 0) return 0;
  return n.ttlSeconds - Math.floor((Date.now() - n.createdAt.getTime()) / 1000);
}
