import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConversationRepository, HeldStatusRepository, MessageRepository, ProviderStatusUpdate } from '@platform/database';
import { MessageLifecyclePublisher } from '@platform/queue';
import { RECEIPT_ORDER, StatusEvent, foldStatusEvents } from '@platform/whatsapp';

/**
 * How long after holding statuses the webhook looks for their sends once more: a send recorded while
 * the hold committed checked for held statuses before it (its statement's snapshot), and the first look
 * right after the hold can come before that send commits.
 */
const HELD_LOOK_AGAIN_MS = 2000;

/** Most webhook notifications whose statuses one statement applies. */
const MAX_BATCH = 500;

interface Waiting {
  events: readonly StatusEvent[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Records the message statuses of a WhatsApp webhook notification on the messages they belong to. */
@Injectable()
export class MessageReceiptsService implements OnApplicationShutdown {
  private readonly logger = new Logger('WhatsAppWebhook');
  private readonly lookingAgain = new Set<NodeJS.Timeout>();
  private waiting: Waiting[] = [];
  private running = false;

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
   *
   * Group commit: the statuses of the notifications that arrive while a batch is being written go in
   * the next batch, folded together (one update per message id, so one statement never matches a row
   * twice), and each caller resolves once its batches are committed. Under load every webhook then costs
   * a share of one statement and one commit instead of its own.
   *
   * One batch at a time: two statements in flight never update the same message (they could deadlock
   * each other, and a message's changes could reach the lifecycle stream out of order), and every
   * notification that arrives while one is written goes in the next. Two batches at a time (one per
   * half of the message ids) made them half the size or less: bench:webhooks measured 7.1 writing
   * transactions per 100 webhooks against 3.2 with one, and more CPU per webhook in the gateway and Postgres.
   */
  record(events: readonly StatusEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ events, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => this.runBatch());
      }
    });
  }

  /** Writes the waiting statuses (MAX_BATCH notifications at most), then the next batch if more are waiting. */
  private runBatch(): void {
    const batch = this.waiting.length <= MAX_BATCH ? this.waiting : this.waiting.slice(0, MAX_BATCH);
    this.waiting = this.waiting.length <= MAX_BATCH ? [] : this.waiting.slice(MAX_BATCH);
    if (batch.length === 0) {
      this.running = false;
      return;
    }
    this.apply(batch.length === 1 ? batch[0].events : batch.flatMap((w) => w.events))
      .finally(() => setImmediate(() => this.runBatch()))
      .then(({ published }) => published)
      .then(
        () => batch.forEach((w) => w.resolve()),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      );
  }

  /**
   * The batch's statements; resolves when they are committed, with the publishing of the changes they
   * made still under way (`published`): the next batch need not wait for Redis, and its changes
   * are published after these all the same (the publisher writes in the order it is called).
   */
  private async apply(events: readonly StatusEvent[]): Promise<{ published: Promise<void> }> {
    const updates = foldStatusEvents(events);
    const { unknown, changes } = await this.messages.applyProviderStatuses(updates, RECEIPT_ORDER);
    const published = this.lifecycle.publish(changes);
    if (unknown.length > 0) await this.applyUnknown(updates, unknown);
    return { published };
  }

  /** Statuses of ids of no carousel message: bot replies', or held until their send is recorded. */
  private async applyUnknown(updates: ProviderStatusUpdate[], unknown: string[]): Promise<void> {
    const unknownIds = new Set(unknown);
    // Ids of no carousel message may be bot replies in conversations.
    const notReplies = (
      await this.conversations.applyProviderStatuses(
        updates.filter((u) => unknownIds.has(u.providerMessageId)),
        RECEIPT_ORDER,
      )
    ).unknown;
    // A `sent` needs no keeping: recording the send sets it.
    const notReplyIds = new Set(notReplies);
    const toHold = updates.filter((u) => notReplyIds.has(u.providerMessageId) && u.status !== 'sent');
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
