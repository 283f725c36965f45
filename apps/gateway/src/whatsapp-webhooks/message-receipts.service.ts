import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConversationRepository, HeldStatusRepository, MessageRepository } from '@platform/database';
import { MessageLifecyclePublisher } from '@platform/queue';
import { RECEIPT_ORDER, StatusEvent, foldStatusEvents } from '@platform/whatsapp';

/**
 * How long after holding statuses the webhook looks for their sends once more: a send recorded while
 * the hold committed checked for held statuses before it (its statement's snapshot), and the first look
 * right after the hold can come before that send commits.
 */
const HELD_LOOK_AGAIN_MS = 2000;

/** Records the message statuses of a WhatsApp webhook notification on the messages they belong to. */
@Injectable()
export class MessageReceiptsService implements OnApplicationShutdown {
  private readonly logger = new Logger('WhatsAppWebhook');
  private readonly lookingAgain = new Set<NodeJS.Timeout>();

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
    await this.applyHeld(wamids);
    this.lookAgainLater(wamids);
    this.logger.debug(`statuses of message ids not recorded (yet) held: ${wamids.join(', ')}`);
  }

  onApplicationShutdown(): void {
    for (const timer of this.lookingAgain) clearTimeout(timer);
    this.lookingAgain.clear();
  }

  private async applyHeld(wamids: string[]): Promise<void> {
    await this.lifecycle.publish(await this.messages.applyHeldStatuses(wamids));
    await this.conversations.applyHeldStatuses(wamids);
  }

  /** The second look (HELD_LOOK_AGAIN_MS); a status still held after it waits for its send, or expires. */
  private lookAgainLater(wamids: string[]): void {
    const timer = setTimeout(() => {
      this.lookingAgain.delete(timer);
      this.applyHeld(wamids).catch((err: unknown) => this.logger.warn(`held statuses not looked at again: ${(err as Error)?.message ?? err}`));
    }, HELD_LOOK_AGAIN_MS);
    timer.unref();
    this.lookingAgain.add(timer);
  }
}
