import { Injectable, Logger, Optional } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { Counter } from 'prom-client';
import { JobLockEnv, WhatsAppEnv, WhatsAppRetryEnv } from '@platform/config';
import { CarouselDispatchJob, DEFAULT_VALIDITY_SECONDS, EXPIRED_ERROR_CODE } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { Clock, TickBatcher } from '@platform/common';
import { AcceptedMessage, BusyMessage, CarouselCatalog, ClaimedMessage, DatabaseUnavailableError, MessageRepository } from '@platform/database';
import { MessageLifecyclePublisher } from '@platform/queue';
import { CampaignStates } from '../campaigns/campaign-states.js';
import { sendLeaseMs } from '../send-lease.js';
import { Backoff, SendOutcome, SendPermit, SenderPacer, WhatsAppCloudClient, backoffDelayMs, deliveryDeadline, renderCarouselMessage, retryWithin, throttleDelayMs } from '@platform/whatsapp';

const attempts = new Counter({
  name: 'carousel_send_attempts_total',
  help: 'Cloud API send attempts by outcome (sent, throttled, retry, failed)',
  labelNames: ['outcome'],
});

const paced = new Counter({
  name: 'carousel_paced_total',
  help: "Messages moved to the delayed set until their sender number's next free send slot",
});

const heldInMemory = new Counter({
  name: 'carousel_paced_in_process_total',
  help: "Messages that waited in the worker's memory for their sender number's send slot, it being near",
});

const refused = new Counter({
  name: 'carousel_pace_refused_total',
  help: "Messages ready to send but sent back to the delayed set because their sender number's seconds stayed full",
});

/**
 * How long a message ready to send waits in its job for a second of its number with room (sends of the
 * second before still in flight, or its claim took long): long enough for the next second, so it seldom
 * has to give its claim back and queue again.
 */
const MAX_IN_JOB_PACING_WAIT_MS = 1500;

/** How long a paused (or not yet started) campaign's message waits before it looks again. */
const CAMPAIGN_HOLD_MS = 1000;

/** How long a job waits when Postgres cannot be reached before it tries again (not counted as an attempt). */
const DATABASE_RETRY_MS = 5000;

/** A transient answer of the Cloud API: tried again until the message's validity ends. */
type TransientOutcome = Extract<SendOutcome, { kind: 'throttled' | 'retry' }>;

/**
 * One delivery attempt of a carousel message. A transient failure moves the job to the delayed set
 * (capped exponential backoff, or Meta's throttling delay) until the message's validity ends, then the
 * message fails as `expired`; UnrecoverableError ends the job at once; anything else thrown is an
 * unexpected error BullMQ retries within the job's attempts. A message already in a final state is
 * never sent again, and a send the Cloud API accepted is written to the job before anything else, so
 * it is recorded, not repeated, when a later step fails.
 */
@Injectable()
export class CarouselDispatchHandler {
  private readonly logger = new Logger('CarouselDispatch');
  // Concurrent jobs share their claim and sent statements (one each per event-loop turn).
  private readonly claims = new TickBatcher<AcceptedMessage, ClaimedMessage | BusyMessage | null>((m) => this.messages.startAttempts(m, this.leaseMs));
  // Campaign messages are claimed at most once: a claim never takes a message another run left mid-attempt.
  private readonly onceClaims = new TickBatcher<AcceptedMessage, ClaimedMessage | BusyMessage | null>((m) => this.messages.startAttempts(m, this.leaseMs, true));
  private readonly sends = new TickBatcher((s: Array<{ id: string; providerMessageId: string }>) => this.messages.markSentMany(s));
  private readonly backoff: Backoff;
  /** How long a claim holds a message for its run (`sendLeaseMs`). */
  private readonly leaseMs: number;

  constructor(
    private readonly messages: MessageRepository,
    private readonly whatsapp: WhatsAppCloudClient,
    private readonly secrets: SecretBox,
    private readonly catalog: CarouselCatalog,
    private readonly pacer: SenderPacer,
    env: WhatsAppRetryEnv,
    whatsappEnv: WhatsAppEnv,
    locks: JobLockEnv,
    private readonly lifecycle: MessageLifecyclePublisher,
    private readonly clock: Clock,
    @Optional() private readonly campaigns?: CampaignStates,
  ) {
    this.backoff = { baseMs: env.WHATSAPP_BACKOFF_MS, capMs: env.WHATSAPP_BACKOFF_MAX_MS };
    this.leaseMs = sendLeaseMs(locks.WORKER_LOCK_MS, MAX_IN_JOB_PACING_WAIT_MS, whatsappEnv.WHATSAPP_TIMEOUT_MS);
  }

  async handle(job: Job<CarouselDispatchJob>, lockToken?: string): Promise<string> {
    const onOutage = (err: unknown) => {
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    };
    if (job.data.providerMessageId) return this.recordSent(job, job.data.providerMessageId, lockToken);
    const campaignId = job.data.campaignId;
    if (campaignId) {
      const held = await this.campaignGate(job, campaignId, lockToken).catch(onOutage);
      if (held) return held;
    }
    // Waits for a slot of its sender number before the claim, so waiting counts no attempt.
    const pacedSender = await this.catalog.sender(job.data.senderId).catch(onOutage);
    const permit = pacedSender ? await this.waitForSlot(job, pacedSender.phoneNumberId, pacedSender.throughput, lockToken) : undefined;
    try {
      return await this.claimAndSend(job, onOutage, permit, lockToken);
    } finally {
      // Its send was counted when it was let go: given back if the job ends without sending.
      this.pacer.release(permit);
    }
  }

  /** Claims the message and sends it (with the send counted when its job was let go, if it was). */
  private async claimAndSend(job: Job<CarouselDispatchJob>, onOutage: (err: unknown) => Promise<never>, permit: SendPermit | undefined, lockToken?: string): Promise<string> {
    const { messageId } = job.data;
    const campaignId = job.data.campaignId;
    const message = await (campaignId ? this.onceClaims : this.claims).submit(acceptedMessage(job)).catch(onOutage);
    if (message && 'busyForMs' in message) return this.waitForLease(job, message.busyForMs, lockToken);
    if (!message && campaignId) return this.outcomeUnknown(messageId, 'a worker claimed it and stopped before recording what Meta answered; not sent again');
    if (!message) {
      this.logger.log(`message ${messageId} skipped: already final, or its template or sender no longer exists`);
      return 'skipped: message already final, or its template or sender no longer exists';
    }
    if (this.clock.now() > deadline(job)) return this.expire(job, 'its validity ended before it could be tried again');
    const [template, sender] = await Promise.all([this.catalog.template(message.templateId), this.catalog.sender(message.senderId)]);
    if (!template || !sender) {
      await this.messages.recordError(messageId, 'configuration', 'the template or sender of this message was deleted', true);
      await this.reportFailed(messageId);
      throw new UnrecoverableError('template or sender deleted');
    }

    let token: string;
    try {
      token = this.secrets.decrypt(sender.accessTokenEncrypted);
    } catch (err) {
      await this.messages.recordError(messageId, 'credentials', `sender access token cannot be decrypted: ${(err as Error).message}`, true);
      await this.reportFailed(messageId);
      throw new UnrecoverableError('sender access token cannot be decrypted');
    }
    const body = renderCarouselMessage(template, message.recipient, job.data.cards, job.data.bodyParameters);
    // Counted against the number's rate right before the request and until its answer is back: in every second it may land in.
    const sending = await this.pacer.sendCounted(sender.phoneNumberId, sender.throughput, () => this.whatsapp.send(sender.phoneNumberId, token, body), MAX_IN_JOB_PACING_WAIT_MS, permit);
    if (!sending.sent) return this.secondFull(job, sending.waitMs, lockToken);
    const outcome = sending.value;
    const attempt = message.attempts;
    attempts.inc({ outcome: outcome.kind });

    if (outcome.kind === 'sent') {
      this.logger.log(`message ${messageId} sent as ${outcome.providerMessageId} (attempt ${attempt})`);
      return this.recordSent(job, outcome.providerMessageId, lockToken);
    }
    if (outcome.kind === 'throttled' && outcome.scope === 'sender') await this.slowDown(sender.phoneNumberId);
    if (campaignId && outcome.kind === 'retry' && outcome.code === 'timeout') {
      // Meta may have taken a request it did not answer: a campaign message is not sent again.
      await this.messages.recordError(messageId, 'outcome_unknown', `${outcome.text}; not sent again (campaign messages go at most once)`, true);
      await this.reportFailed(messageId);
      throw new UnrecoverableError(`outcome_unknown: ${outcome.text}`);
    }
    if (outcome.kind === 'failed') {
      await this.messages.recordError(messageId, outcome.code, outcome.text, true);
      await this.reportFailed(messageId);
      this.logger.warn(`message ${messageId} attempt ${attempt} failed: ${outcome.code} ${outcome.text}`);
      throw new UnrecoverableError(`${outcome.code}: ${outcome.text}`);
    }
    return this.retryLater(job, outcome, attempt, lockToken);
  }

  /**
   * Records a send the Cloud API accepted and publishes it. When the write fails, the wamid is kept
   * on the job first, so that the next run records it and never sends again; while Postgres is down
   * the job waits. The wamid goes to Redis only then, not before every write: on the hot path that
   * would be one more synced Redis write per message.
   */
  private async recordSent(job: Job<CarouselDispatchJob>, providerMessageId: string, lockToken?: string): Promise<string> {
    const changes = await this.sends.submit({ id: job.data.messageId, providerMessageId }).catch(async (err: unknown) => {
      if (job.data.providerMessageId !== providerMessageId) await job.updateData({ ...job.data, providerMessageId });
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    });
    await this.lifecycle.publish(changes);
    return providerMessageId;
  }

  /**
   * A transient failure: the message waits in the delayed set (Meta's throttling delay, else the capped
   * exponential backoff) and is tried again, unless that try would come after its validity ends: then
   * it fails as `expired`. A throttling answer does not count as an attempt: it was not the message's fault.
   */
  private async retryLater(job: Job<CarouselDispatchJob>, outcome: TransientOutcome, attempt: number, lockToken?: string): Promise<never> {
    const { messageId } = job.data;
    const throttled = outcome.kind === 'throttled';
    const throttles = (job.data.throttles ?? 0) + (throttled ? 1 : 0);
    const retries = (job.data.retries ?? 0) + (throttled ? 0 : 1);
    const delay = throttled ? throttleDelayMs(outcome.scope, throttles, outcome.retryAfterMs) : backoffDelayMs(retries, this.backoff);
    if (retryWithin(this.clock.now(), deadline(job), delay).kind === 'expired') {
      return this.expire(job, `the last try failed (${outcome.code} ${outcome.text}) and the next would come after its validity ends`);
    }
    const recorded = throttled ? this.messages.recordThrottled(messageId, outcome.code, outcome.text) : this.messages.recordError(messageId, outcome.code, outcome.text, false);
    await recorded.catch((err: unknown) => {
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    });
    if (job.data.campaignId) await this.messages.parkAttempt(messageId);
    this.logger.warn(`message ${messageId} attempt ${attempt}: ${throttled ? `throttled by Meta (${outcome.scope}) ` : ''}${outcome.code} ${outcome.text}; trying again in ${delay} ms`);
    await job.updateData({ ...job.data, throttles, retries });
    await job.moveToDelayed(Date.now() + this.clock.realMs(delay), lockToken);
    throw new DelayedError();
  }

  /** Fails the message as `expired` and publishes it: its validity is over. */
  private async expire(job: Job<CarouselDispatchJob>, why: string): Promise<never> {
    const { messageId } = job.data;
    const validity = job.data.validitySeconds ?? DEFAULT_VALIDITY_SECONDS;
    await this.messages.recordError(messageId, EXPIRED_ERROR_CODE, `Not sent within its validity of ${validity} s: ${why}`, true);
    await this.reportFailed(messageId);
    this.logger.warn(`message ${messageId} expired: ${why}`);
    throw new UnrecoverableError(`${EXPIRED_ERROR_CODE}: ${why}`);
  }

  /** Goes on only in a free slot of the sender number's rate: otherwise the job waits in the delayed set for its slot. */
  private async waitForSlot(job: Job<CarouselDispatchJob>, phoneNumberId: string, rate: number, lockToken?: string): Promise<SendPermit | undefined> {
    const decision = await this.pacer.reserve(phoneNumberId, job.id ?? job.data.messageId, rate);
    if (decision.go) {
      if (decision.heldMs !== undefined) heldInMemory.inc();
      return decision.permit;
    }
    paced.inc();
    await job.moveToDelayed(Date.now() + decision.waitMs, lockToken);
    throw new DelayedError();
  }

  /**
   * The sender number's seconds stayed full while the message was ready to go: its claim is un-counted
   * (if Postgres lets it: else that attempt stays counted) and it waits in the delayed set.
   */
  private async secondFull(job: Job<CarouselDispatchJob>, waitMs: number, lockToken?: string): Promise<never> {
    refused.inc();
    await this.messages.releaseAttempt(job.data.messageId).catch((err: unknown) => {
      if (!(err instanceof DatabaseUnavailableError)) throw err;
    });
    // Left `processing`, a campaign message would be failed as outcome unknown by its next claim.
    if (job.data.campaignId) await this.messages.parkAttempt(job.data.messageId);
    await job.moveToDelayed(Date.now() + waitMs, lockToken);
    throw new DelayedError();
  }

  /**
   * A campaign message goes only while its campaign runs: paused (or scheduled) it waits in the delayed
   * set, cancelled or deleted it is not sent. Null: go on.
   */
  private async campaignGate(job: Job<CarouselDispatchJob>, campaignId: string, lockToken?: string): Promise<string | null> {
    const status = this.campaigns ? await this.campaigns.status(campaignId) : 'running';
    if (status === 'running' || status === 'completed') return null;
    if (status === 'paused' || status === 'scheduled') {
      await job.moveToDelayed(Date.now() + CAMPAIGN_HOLD_MS, lockToken);
      throw new DelayedError();
    }
    await this.campaigns?.cancelUnsent(job.data.messageId);
    return `skipped: campaign ${status ?? 'deleted'}`;
  }

  /** A campaign message found mid-attempt by its claim: failed, never sent again (at most once). */
  private async outcomeUnknown(messageId: string, why: string): Promise<string> {
    const change = await this.messages.failOutcomeUnknown(messageId, why);
    if (change) {
      this.logger.warn(`campaign message ${messageId} failed: ${why}`);
      await this.lifecycle.publish([change]);
      return `failed: ${why}`;
    }
    this.logger.log(`message ${messageId} skipped: already final, or its template or sender no longer exists`);
    return 'skipped: message already final, or its template or sender no longer exists';
  }

  private async slowDown(phoneNumberId: string): Promise<void> {
    const factor = await this.pacer.slowDown(phoneNumberId).catch((err: unknown) => {
      this.logger.warn(`sender ${phoneNumberId}: pacing could not be slowed down (${(err as Error).message})`);
      return undefined;
    });
    if (factor !== undefined) this.logger.warn(`sender ${phoneNumberId}: Meta reports its throughput used up; pacing at ${factor} of its rate for a while`);
  }

  /** Publishes a message's final failure (lifecycle stream, postback). */
  private async reportFailed(messageId: string): Promise<void> {
    await this.lifecycle.publish([await this.messages.currentChange(messageId)]);
  }

  /**
   * Another run holds the message's lease: this job's lock lapsed while that run was still sending (or
   * it died mid-send). The job waits until the lease ends, using no attempt; by then that run recorded
   * its outcome (this run skips the message), or it died and this run goes on as after any crash.
   */
  private async waitForLease(job: Job<CarouselDispatchJob>, forMs: number, lockToken?: string): Promise<never> {
    this.logger.warn(`message ${job.data.messageId}: another run may still be sending it; trying again in ${forMs} ms, once its claim has ended`);
    await job.moveToDelayed(Date.now() + forMs + 100, lockToken);
    throw new DelayedError();
  }

  /** Postgres is down: the job goes back to the delayed set and tries again later, its attempts untouched. */
  private async waitForDatabase(job: Job<CarouselDispatchJob>, lockToken?: string): Promise<never> {
    this.logger.warn(`message ${job.data.messageId}: Postgres is unreachable; trying again in ${DATABASE_RETRY_MS} ms`);
    await job.moveToDelayed(Date.now() + DATABASE_RETRY_MS, lockToken);
    throw new DelayedError();
  }
}

/** When the message stops being retried: its acceptance plus its validity. */
function deadline(job: Job<CarouselDispatchJob>): number {
  return deliveryDeadline(job.timestamp, job.data.validitySeconds ?? DEFAULT_VALIDITY_SECONDS);
}

/** The message as the gateway accepted it, from its job. */
export function acceptedMessage(job: Job<CarouselDispatchJob>): AcceptedMessage {
  const { messageId, botId, templateId, senderId, channel, recipient, postbackUrl, customPayload, idempotencyFingerprint } = job.data;
  return { id: messageId, botId, templateId, senderId, channel, recipient, acceptedAt: new Date(job.timestamp), postbackUrl, customPayload, idempotencyFingerprint };
}
