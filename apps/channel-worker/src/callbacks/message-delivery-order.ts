import { Injectable } from '@nestjs/common';
import { ConversationRepository } from '@platform/database';

export type DeliveryTurn = 'go' | 'wait' | 'erased';

/**
 * Keeps a conversation's `message.received` calls in order: a message goes to the bot only once every
 * earlier message of its conversation was taken (2xx) or given up. The messages' rows say so
 * (`webhook_settled_at`), so the order holds across worker replicas and restarts.
 */
@Injectable()
export class MessageDeliveryOrder {
  constructor(private readonly conversations: ConversationRepository) {}

  /** 'erased': the message was deleted (data-protection erasure or retention) and is not delivered. */
  async turn(messageId: string): Promise<DeliveryTurn> {
    const message = await this.conversations.findMessage(messageId);
    if (!message) return 'erased';
    return (await this.conversations.hasUnsettledBefore(message.conversationId, message.seq)) ? 'wait' : 'go';
  }

  /** The message was answered 2xx or given up: the conversation's next message may go. */
  async release(messageId: string): Promise<void> {
    await this.conversations.markWebhookSettled(messageId);
  }
}
