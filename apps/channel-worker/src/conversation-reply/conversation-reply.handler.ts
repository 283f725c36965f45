import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError } from 'bullmq';
import { Clock } from '@platform/common';
import { JobLockEnv, WhatsAppEnv, WhatsAppRetryEnv } from '@platform/config';
import { ConversationQueueNames, DEFAULT_VALIDITY_SECONDS, EXPIRED_ERROR_CODE, MessageContent } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSenderRepository, ConversationRepository, DatabaseUnavailableError } from '@platform/database';
import { QueueJob } from '@platform/queue';
import { sendLeaseMs } from '../send-lease.js';
import { Backoff, SendOutcome, SenderPacer, WhatsAppCloudClient, backoffDelayMs, deliveryDeadline, renderWhatsAppSession, retryWithin, throttleDelayMs } from '@platform/whatsapp';

type ReplyJob = QueueJob<typeof ConversationQueueNames.conversationReply>;

/** A transient answer of the Cloud API: tried again until the reply's validity ends. */
type TransientOutcome = Extract<SendOutcome, { kind: 'throttled' | 'retry' }>;

/** How long a reply waits for room in its sender number's rate before its try counts as a transient failure. */
const MAX_PACING_WAIT_MS = 10_000;

/** How long a job waits when Postgres cannot be reached before it tries again. */
const DATABASE_RETRY_MS = 5000;

/**
 * How long a reply is retried through transient failures after the bot gave it: the carousel's
 * default validity. Meta refuses (for good) a session message past the user's 24-hour window anyway.
 */
export const REPLY_VALIDITY_SECONDS = DEFAULT_VALIDITY_SECONDS;

/**
 * Sends one bot reply of a WhatsApp conversation as session message(s), its parts. Each part's wamid
 * is written to the job, then recorded in Postgres, as soon as it is sent: a later run goes on from
 * the first part not sent, and a failure after a send never sends that part again. A transient refusal
 * (5xx, timeout, network, Meta's throttling) waits in the delayed set with capped exponential backoff
 * until the reply's validity ends, then the reply fails as `expired`; any other refusal fails it at
 * once. A reply already sent or failed is skipped.
 */
@Injectable()
export class ConversationReplyHandler {
  private readonly logger = new Logger('ConversationReply');
  private readonly backoff: Backoff;
  /** How long a claim holds a reply for its run, renewed per part (`sendLeaseMs`). */
  private readonly leaseMs: number;

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly senders: ChannelSenderRepository,
    private readonly box: SecretBox,
    private readonly whatsapp: WhatsAppCloudClient,
    private readonly pacer: SenderPacer,
    env: WhatsAppRetryEnv,
    whatsappEnv: WhatsAppEnv,
    locks: JobLockEnv,
    private readonly clock: Clock,
  ) {
    this.backoff = { baseMs: env.WHATSAPP_BACKOFF_MS, capMs: env.WHATSAPP_BACKOFF_MAX_MS };
    this.leaseMs = sendLeaseMs(locks.WORKER_LOCK_MS, MAX_PACING_WAIT_MS, whatsappEnv.WHATSAPP_TIMEOUT_MS);
  }

  async handle(job: ReplyJob, lockToken?: string): Promise<string> {
    const onOutage = (err: unknown) => {
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    };
    const claim = await this.conversations.claimReply(job.data.messageId, this.leaseMs).catch(onOutage);
    if (claim.kind === 'skip') return 'skipped';
    if (claim.kind === 'busy') return this.waitForLease(job, claim.forMs, lockToken);
    const { message } = claim;
    const sent = [...(job.data.sentParts ?? [])];
    await this.conversations.recordParts(message.id, sent).catch(onOutage);
    const sender = message.conversation.senderId ? await this.senders.findById(message.conversation.senderId).catch(onOutage) : null;
    if (!sender) {
      await this.conversations.markAttemptFailed(message.id, 'no_sender', 'The WhatsApp sender of this conversation was removed', true);
      throw new UnrecoverableError('no sender');
    }
    const token = this.box.decrypt(sender.accessTokenEncrypted);
    const bodies = renderWhatsAppSession(message.conversation.userId, message.type, message.content as MessageContent);
    if (sent.length < bodies.length && this.clock.now() > deadline(job)) return this.expire(job, 'its validity ended before it could be tried again');
    const first = sent.length;
    for (let part = first; part < bodies.length; part++) {
      // The claim leased one part's time; each further part renews it.
      if (part > first) await this.conversations.extendClaim(message.id, this.leaseMs).catch(onOutage);
      const outcome = await this.sendPaced(sender.phoneNumberId, sender.throughput, () => this.whatsapp.send(sender.phoneNumberId, token, bodies[part]));
      const which = bodies.length > 1 ? ` (message ${part + 1} of ${bodies.length})` : '';
      if (outcome.kind === 'sent') {
        sent.push(outcome.providerMessageId);
        // Kept with the job before Postgres hears of it: a run after a failure goes on after this part.
        await job.updateData({ ...job.data, sentParts: [...sent] });
        await this.conversations.recordParts(message.id, sent).catch(onOutage);
        continue;
      }
      if (outcome.kind === 'failed') {
        await this.conversations.markAttemptFailed(message.id, outcome.code, `${outcome.text}${which}`, true);
        this.logger.warn(`reply ${message.id}${which}: ${outcome.code} ${outcome.text}; failed`);
        throw new UnrecoverableError(outcome.text);
      }
      return this.retryLater(job, outcome, which, lockToken);
    }
    await this.conversations.markSent(message.id, sent[0] ?? '').catch(onOutage);
    return 'sent';
  }

  /**
   * A transient failure: the reply waits in the delayed set (Meta's throttling delay, else the capped
   * exponential backoff) and goes on from the part that failed, unless that try would come after its
   * validity ends: then it fails as `expired`.
   */
  private async retryLater(job: ReplyJob, outcome: TransientOutcome, which: string, lockToken?: string): Promise<never> {
    const { messageId } = job.data;
    const retries = (job.data.retries ?? 0) + 1;
    const delay = outcome.kind === 'throttled' ? throttleDelayMs(outcome.scope, retries, outcome.retryAfterMs) : backoffDelayMs(retries, this.backoff);
    if (retryWithin(this.clock.now(), deadline(job), delay).kind === 'expired') {
      return this.expire(job, `the last try${which} failed (${outcome.code} ${outcome.text}) and the next would come after its validity ends`);
    }
    await this.conversations.markAttemptFailed(messageId, outcome.code, `${outcome.text}${which}`, false).catch((err: unknown) => {
      if (err instanceof DatabaseUnavailableError) return this.waitForDatabase(job, lockToken);
      throw err;
    });
    this.logger.warn(`reply ${messageId}${which}: ${outcome.code} ${outcome.text}; trying again in ${delay} ms`);
    await job.updateData({ ...job.data, retries });
    await job.moveToDelayed(Date.now() + this.clock.realMs(delay), lockToken);
    throw new DelayedError();
  }

  /** Fails the reply as `expired`: its validity is over. Parts sent before keep their own status. */
  private async expire(job: ReplyJob, why: string): Promise<never> {
    await this.conversations.markAttemptFailed(job.data.messageId, EXPIRED_ERROR_CODE, `Not sent within its validity of ${REPLY_VALIDITY_SECONDS} s: ${why}`, true);
    this.logger.warn(`reply ${job.data.messageId} expired: ${why}`);
    throw new UnrecoverableError(`${EXPIRED_ERROR_CODE}: ${why}`);
  }

  /**
   * Another run holds the reply's lease: this job's lock lapsed while that run was still sending (or it
   * died mid-send). The job waits until the lease ends, using no attempt; by then that run recorded the
   * reply sent (this run skips it), or it died and this run sends.
   */
  private async waitForLease(job: ReplyJob, forMs: number, lockToken?: string): Promise<never> {
    this.logger.warn(`reply ${job.data.messageId}: another run may still be sending it; trying again in ${forMs} ms, once its claim has ended`);
    await job.moveToDelayed(Date.now() + forMs + 100, lockToken);
    throw new DelayedError();
  }

  /** Postgres is down: the job goes back to the delayed set and tries again later. */
  private async waitForDatabase(job: ReplyJob, lockToken?: string): Promise<never> {
    this.logger.warn(`reply ${job.data.messageId}: Postgres is unreachable; trying again in ${DATABASE_RETRY_MS} ms`);
    await job.moveToDelayed(Date.now() + DATABASE_RETRY_MS, lockToken);
    throw new DelayedError();
  }

  /**
   * Sends within the number's rate, shared with its carousel messages: a reply waits here, briefly,
   * for a second with room, and takes no slot ahead of time, so it goes before campaign messages
   * still waiting for theirs. No room within the wait is a transient failure.
   */
  private async sendPaced(phoneNumberId: string, rate: number, send: () => Promise<SendOutcome>): Promise<SendOutcome> {
    const sending = await this.pacer.sendCounted(phoneNumberId, rate, send, MAX_PACING_WAIT_MS);
    if (sending.sent) return sending.value;
    return { kind: 'retry', code: 'paced', text: `the sender number's rate (${rate}/s) left no room for this reply within ${MAX_PACING_WAIT_MS} ms` };
  }
}

/** When the reply stops being retried: when the bot gave it plus its validity. */
function deadline(job: ReplyJob): number {
  return deliveryDeadline(job.timestamp, REPLY_VALIDITY_SECONDS);
}
