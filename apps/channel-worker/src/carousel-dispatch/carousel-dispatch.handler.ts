import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { Counter } from 'prom-client';
import { CarouselDispatchJob } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { AcceptedMessage, CarouselCatalog, ClaimedMessage, DatabaseUnavailableError, MessageRepository, TickBatcher } from '@platform/database';
import { MessageLifecyclePublisher, isFinalAttempt } from '@platform/queue';
import { renderCarouselMessage } from '../whatsapp/whatsapp-carousel.renderer.js';
import { WhatsAppCloudClient } from '../whatsapp/whatsapp-cloud.client.js';

const attempts = new Counter({
  name: 'carousel_send_attempts_total',
  help: 'Cloud API send attempts by outcome (sent, retry, failed)',
  labelNames: ['outcome'],
});

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
    private readonly lifecycle: MessageLifecyclePublisher,
  ) {}

  async handle(job: Job<CarouselDispatchJob>, lockToken?: string): Promise<string> {
    const { messageId } = job.data;
    const message = await this.claims.submit(acceptedMessage(job)).catch((err: unknown) => {
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    });
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
    const body = renderCarouselMessage(template, message.recipient, job.data.cards);
    const outcome = await this.whatsapp.send(sender.phoneNumberId, token, body);
    const attempt = message.attempts;
    attempts.inc({ outcome: outcome.kind });

    if (outcome.kind === 'sent') {
      await this.lifecycle.publish([await this.sends.submit({ id: messageId, providerMessageId: outcome.providerMessageId })]);
      this.logger.log(`message ${messageId} sent as ${outcome.providerMessageId} (attempt ${attempt})`);
      return outcome.providerMessageId;
    }
    const lastAttempt = outcome.kind === 'failed' || isFinalAttempt(job);
    await this.messages.recordError(messageId, outcome.code, outcome.text, lastAttempt);
    if (lastAttempt) await this.reportFailed(messageId);
    this.logger.warn(`message ${messageId} attempt ${attempt} ${lastAttempt ? 'failed' : 'will be retried'}: ${outcome.code} ${outcome.text}`);
    if (outcome.kind === 'failed') throw new UnrecoverableError(`${outcome.code}: ${outcome.text}`);
    throw new Error(`${outcome.code}: ${outcome.text}`);
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
