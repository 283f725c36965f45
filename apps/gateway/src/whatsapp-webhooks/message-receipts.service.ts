import { Injectable, Logger } from '@nestjs/common';
import { ConversationRepository, MessageRepository } from '@platform/database';
import { MessageLifecyclePublisher } from '@platform/queue';
import { RECEIPT_ORDER, foldStatusEvents, readStatusEvents } from '@platform/whatsapp';

/** Records the message statuses of a WhatsApp webhook notification on the messages they belong to. */
@Injectable()
export class MessageReceiptsService {
  private readonly logger = new Logger('WhatsAppWebhook');

  constructor(
    private readonly messages: MessageRepository,
    private readonly conversations: ConversationRepository,
    private readonly lifecycle: MessageLifecyclePublisher,
  ) {}

  /**
   * Resolves once every status is committed (in one statement) and the changes it made are published
   * (lifecycle stream, postbacks); statuses of unknown message ids are ignored.
   */
  async record(notification: unknown): Promise<void> {
    const { events, skipped } = readStatusEvents(notification);
    if (skipped > 0) this.logger.debug(`${skipped} status(es) ignored: no message id, or not sent/delivered/read/failed`);
    if (events.length === 0) return;
    const updates = foldStatusEvents(events);
    const { unknown, changes } = await this.messages.applyProviderStatuses(updates, RECEIPT_ORDER);
    await this.lifecycle.publish(changes);
    // Ids of no carousel message may be bot replies in conversations.
    await this.conversations.applyProviderStatuses(updates.filter((u) => unknown.includes(u.providerMessageId)), RECEIPT_ORDER);
    if (unknown.length > 0) this.logger.debug(`statuses of unknown message ids ignored: ${unknown.join(', ')}`);
  }
}
