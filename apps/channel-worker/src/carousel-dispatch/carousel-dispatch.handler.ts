import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { Counter } from 'prom-client';
import { WhatsAppEnv } from '@platform/config';
import { CarouselDispatchJob } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { TickBatcher } from '@platform/common';
import { AcceptedMessage, CarouselCatalog, ClaimedMessage, DatabaseUnavailableError, MessageRepository } from '@platform/database';
import { MessageLifecyclePublisher, isFinalAttempt } from '@platform/queue';
import { SendOutcome, SenderPacer, WhatsAppCloudClient, renderCarouselMessage, throttleDelayMs } from '@platform/whatsapp';

const attempts = new Counter({
  name: 'carousel_send_attempts_total',
  help: 'Cloud API send attempts by outcome (sent, throttled, retry, failed)',
  labelNames: ['outcome'],
});

const paced = new Counter({
  name: 'carousel_paced_total',
  help: "Messages moved to the delayed set until their sender number's next free send slot",
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

/** How long a job waits when Postgres cannot be reached before it tries again (not counted as an attempt). */
const DATABASE_RETRY_MS = 5000;

/**
 * One delivery attempt of a carousel message. Throwing makes BullMQ retry with backoff;
 * UnrecoverableError ends the job at once. A message already in a final state is never sent again.
 */
@Injectable()
export class CarouselDispatchHandler {
  private readonly logger = new Logger('CarouselDispatch');
  // Concurrent jobs share their claim and sent statements (one each per event-loop turn).
  private readonly claims = new TickBatcher<AcceptedMessage, ClaimedMessage | null>((m) => this.messages.startAttempts(m));
  private readonly sends = new TickBatcher((s: Array<{ id: string; providerMessageId: string }>) => this.messages.markSentMany(s));

  constructor(
    private readonly messages: MessageRepository,
    private readonly whatsapp: WhatsAppCloudClient,
    private readonly secrets: SecretBox,
    private readonly catalog: CarouselCatalog,
    private readonly pacer: SenderPacer,
    private readonly env: WhatsAppEnv,
    private readonly lifecycle: MessageLifecyclePublisher,
  ) {}

  async handle(job: Job<CarouselDispatchJob>, lockToken?: string): Promise<string> {
    const { messageId } = job.data;
    const onOutage = (err: unknown) => {
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    };
    // Waits for a slot of its sender number before the claim, so waiting counts no attempt.
    const pacedSender = await this.catalog.sender(job.data.senderId).catch(onOutage);
    if (pacedSender) await this.waitForSlot(job, pacedSender.phoneNumberId, pacedSender.throughput, lockToken);
    const message = await this.claims.submit(acceptedMessage(job)).catch(onOutage);
    if (!message) {
      this.logger.log(`message ${messageId} skipped: already final, or its template or sender no longer exists`);
      return 'skipped: message already final, or its template or sender no longer exists';
    }
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
    const sending = await this.pacer.sendCounted(sender.phoneNumberId, sender.throughput, () => this.whatsapp.send(sender.phoneNumberId, token, body), MAX_IN_JOB_PACING_WAIT_MS);
    if (!sending.sent) return this.secondFull(job, sending.waitMs, lockToken);
    const outcome = sending.value;
    const attempt = message.attempts;
    attempts.inc({ outcome: outcome.kind });

    if (outcome.kind === 'sent') {
      await this.lifecycle.publish(await this.sends.submit({ id: messageId, providerMessageId: outcome.providerMessageId }));
      this.logger.log(`message ${messageId} sent as ${outcome.providerMessageId} (attempt ${attempt})`);
      return outcome.providerMessageId;
    }
    if (outcome.kind === 'throttled' && (job.data.throttles ?? 0) < this.env.WHATSAPP_THROTTLE_RETRIES) {
      return this.throttled(job, outcome, sender.phoneNumberId, lockToken);
    }
    if (outcome.kind === 'throttled' && outcome.scope === 'sender') await this.slowDown(sender.phoneNumberId);
    const lastAttempt = outcome.kind === 'failed' || isFinalAttempt(job);
    await this.messages.recordError(messageId, outcome.code, outcome.text, lastAttempt);
    if (lastAttempt) await this.reportFailed(messageId);
    this.logger.warn(`message ${messageId} attempt ${attempt} ${lastAttempt ? 'failed' : 'will be retried'}: ${outcome.code} ${outcome.text}`);
    if (outcome.kind === 'failed') throw new UnrecoverableError(`${outcome.code}: ${outcome.text}`);
    throw new Error(`${outcome.code}: ${outcome.text}`);
  }

  /** Goes on only in a free slot of the sender number's rate: otherwise the job waits in the delayed set for its slot. */
  private async waitForSlot(job: Job<CarouselDispatchJob>, phoneNumberId: string, rate: number, lockToken?: string): Promise<void> {
    const decision = await this.pacer.reserve(phoneNumberId, job.id ?? job.data.messageId, rate);
    if (decision.go) return;
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
    await job.moveToDelayed(Date.now() + waitMs, lockToken);
    throw new DelayedError();
  }

  /**
   * Meta throttled the message: it waits (Meta's hint, or the scope's backoff) in the delayed set and
   * tries again without using up an attempt; a 130429 also slows the number's pacing down for a while.
   */
  private async throttled(
    job: Job<CarouselDispatchJob>,
    outcome: Extract<SendOutcome, { kind: 'throttled' }>,
    phoneNumberId: string,
    lockToken?: string,
  ): Promise<never> {
    const { messageId } = job.data;
    const throttles = (job.data.throttles ?? 0) + 1;
    if (outcome.scope === 'sender') await this.slowDown(phoneNumberId);
    const delay = throttleDelayMs(outcome.scope, throttles, outcome.retryAfterMs);
    await this.messages.recordThrottled(messageId, outcome.code, outcome.text);
    this.logger.warn(`message ${messageId} throttled by Meta (${outcome.scope}, ${outcome.code} ${outcome.text}); trying again in ${delay} ms (throttle ${throttles} of ${this.env.WHATSAPP_THROTTLE_RETRIES} not counted as attempts)`);
    await job.updateData({ ...job.data, throttles });
    await job.moveToDelayed(Date.now() + delay, lockToken);
    throw new DelayedError();
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

  /** Postgres is down: the job goes back to the delayed set and tries again later, its attempts untouched. */
  private async waitForDatabase(job: Job<CarouselDispatchJob>, lockToken?: string): Promise<never> {
    this.logger.warn(`message ${job.data.messageId}: Postgres is unreachable; trying again in ${DATABASE_RETRY_MS} ms`);
    await job.moveToDelayed(Date.now() + DATABASE_RETRY_MS, lockToken);
    throw new DelayedError();
  }
}

/** The message as the gateway accepted it, from its job. */
export function acceptedMessage(job: Job<CarouselDispatchJob>): AcceptedMessage {
  const { messageId, botId, templateId, senderId, channel, recipient, postbackUrl, customPayload } = job.data;
  return { id: messageId, botId, templateId, senderId, channel, recipient, acceptedAt: new Date(job.timestamp), postbackUrl, customPayload };
}
