import { Injectable, Logger } from '@nestjs/common';
import { ConversationRepository, HeldStatusRepository, MessageRepository } from '@platform/database';
import { MessageLifecyclePublisher } from '@platform/queue';
import { RECEIPT_ORDER, StatusEvent, foldStatusEvents } from '@platform/whatsapp';

/** Records the message statuses of a WhatsApp webhook notification on the messages they belong to. */
@Injectable()
export class MessageReceiptsService {
  private readonly logger = new Logger('WhatsAppWebhook');

  constructor(
    private readonly messages: MessageRepository,
    private readonly conversations: ConversationRepository,
    private readonly held: HeldStatusRepository,
    private readonly lifecycle: MessageLifecyclePublisher,
  ) {}

  /**
   * Resolves once every status is committed and the changes it made are published (lifecycle stream,
   * postbacks). A status of a message id no send has recorded is held until the send is (Meta may post
   * it before it answers the send): durably before this resolves.
   */
  async record(events: readonly StatusEvent[]): Promise<void> {
    if (events.length === 0) return;
    const updates = foldStatusEvents(events);
    const { unknown, changes } = await this.messages.applyProviderStatuses(updates, RECEIPT_ORDER);
    await this.lifecycle.publish(changes);
    if (unknown.length === 0) return;
    // Ids of no carousel message may be bot replies in conversations.
    const notReplies = (
      await this.conversations.applyProviderStatuses(
        updates.filter((u) => unknown.includes(u.providerMessageId)),
        RECEIPT_ORDER,
      )
    ).unknown;
    // A `sent` needs no keeping: recording the send sets it.
    const toHold = updates.filter((u) => notReplies.includes(u.providerMessageId) && u.status !== 'sent');
    if (toHold.length === 0) return;
    await this.held.hold(toHold);
    // A send recorded between the statements above and the hold looked for held statuses before this
    // one was: look again. A status both sides find is applied once (claiming it deletes it).
    const wamids = toHold.map((u) => u.providerMessageId);
    await this.lifecycle.publish(await this.messages.applyHeldStatuses(wamids));
    await this.conversations.applyHeldStatuses(wamids);
    this.logger.debug(`statuses of message ids not recorded (yet) held: ${wamids.join(', ')}`);
  }
}
