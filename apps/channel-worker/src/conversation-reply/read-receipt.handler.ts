import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import { ConversationRepository } from '@platform/database';
import { WhatsAppCloudClient } from '@platform/whatsapp';

/**
 * Sends WhatsApp's read receipt with the typing indicator for a user's message (a `read` job of the
 * conversation-reply queue). A courtesy: sent once, never retried, and never counted against the
 * sender's message rate (Meta does not count it as a message). A refusal is logged and dropped.
 */
@Injectable()
export class ReadReceiptHandler {
  private readonly logger = new Logger('ReadReceipt');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly box: SecretBox,
    private readonly whatsapp: WhatsAppCloudClient,
  ) {}

  async handle(messageId: string): Promise<'read' | 'skipped' | 'refused'> {
    const message = await this.conversations.findInboundWithSender(messageId);
    const sender = message?.conversation.sender;
    if (!message?.providerMessageId || !sender) return 'skipped'; // erased, or the number was removed meanwhile
    const outcome = await this.whatsapp.markRead(sender.phoneNumberId, this.box.decrypt(sender.accessTokenEncrypted), message.providerMessageId);
    if (outcome.ok) return 'read';
    this.logger.warn(`read receipt for message ${messageId}: ${outcome.code} ${outcome.text}; dropped`);
    return 'refused';
  }
}
