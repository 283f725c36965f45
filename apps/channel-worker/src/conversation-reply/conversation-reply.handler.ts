import { Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { ConversationQueueNames, MessageContent } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSenderRepository, ConversationRepository } from '@platform/database';
import { QueueJob, isFinalAttempt } from '@platform/queue';
import { SendOutcome, SenderPacer, WhatsAppCloudClient, renderWhatsAppSession } from '@platform/whatsapp';

/** How long a reply waits for room in its sender number's rate before its attempt counts as failed (and is retried). */
const MAX_PACING_WAIT_MS = 10_000;

/**
 * Sends one bot reply of a WhatsApp conversation as session message(s). A transient refusal (429, 5xx,
 * Meta's throttling) is retried by BullMQ; any other refusal fails the message at once. A reply already
 * sent or failed is skipped, so a job that runs twice sends once.
 */
@Injectable()
export class ConversationReplyHandler {
  private readonly logger = new Logger('ConversationReply');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly senders: ChannelSenderRepository,
    private readonly box: SecretBox,
    private readonly whatsapp: WhatsAppCloudClient,
    private readonly pacer: SenderPacer,
  ) {}

  async handle(job: QueueJob<typeof ConversationQueueNames.conversationReply>): Promise<string> {
    const message = await this.conversations.claimReply(job.data.messageId);
    if (!message) return 'skipped';
    const final = isFinalAttempt(job);
    const sender = message.conversation.senderId ? await this.senders.findById(message.conversation.senderId) : null;
    if (!sender) {
      await this.conversations.markAttemptFailed(message.id, 'no_sender', 'The WhatsApp sender of this conversation was removed', true);
      throw new UnrecoverableError('no sender');
    }
    const token = this.box.decrypt(sender.accessTokenEncrypted);
    const bodies = renderWhatsAppSession(message.conversation.userId, message.type, message.content as MessageContent);
    let lastId = '';
    for (const body of bodies) {
      const outcome = await this.sendPaced(sender.phoneNumberId, sender.throughput, () => this.whatsapp.send(sender.phoneNumberId, token, body));
      if (outcome.kind === 'sent') {
        lastId = outcome.providerMessageId;
        continue;
      }
      const giveUp = outcome.kind === 'failed' || final;
      await this.conversations.markAttemptFailed(message.id, outcome.code, outcome.text, giveUp);
      this.logger.warn(`reply ${message.id}: ${outcome.code} ${outcome.text}${giveUp ? '; failed' : '; will retry'}`);
      if (outcome.kind === 'failed') throw new UnrecoverableError(outcome.text);
      throw new Error(outcome.text);
    }
    await this.conversations.markSent(message.id, lastId);
    return 'sent';
  }

  /**
   * Sends within the number's rate, shared with its carousel messages: a reply waits here, briefly,
   * for a second with room. It does not leave for the delayed set, since a reply of several messages
   * whose first is out would send that one again when the job runs again; a reply takes no slot ahead
   * of time either, so it goes before campaign messages still waiting for theirs.
   */
  private async sendPaced(phoneNumberId: string, rate: number, send: () => Promise<SendOutcome>): Promise<SendOutcome> {
    const sending = await this.pacer.sendCounted(phoneNumberId, rate, send, MAX_PACING_WAIT_MS);
    if (sending.sent) return sending.value;
    return { kind: 'retry', code: 'paced', text: `the sender number's rate (${rate}/s) left no room for this reply within ${MAX_PACING_WAIT_MS} ms` };
  }
}
