import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WireBotEvent } from '@platform/contracts';
import { ReplyDelivery, SdkEventStore, webReplyEvent, webTypingEvent } from '@platform/conversations';
import { BotRunRepository, type BotRunConversation, type ConversationMessageRow, type HandoverItem } from '@platform/database';
import { HandoffEvents } from './handoff-events.js';
import { ReplyOrderWaitError } from './reply-order-wait.error.js';

/** How long a handover waits in process for an earlier WhatsApp reply to be sent before the job waits in the delayed set instead. */
const ORDER_WAIT_MS = 20_000;
const ORDER_POLL_MS = 50;

/**
 * An earlier reply still unsent after this long no longer holds the next ones back: the channel worker
 * gives a reply up after its validity (4 h), so one older than that is stuck, not in flight.
 */
const ORDER_HOLD_MAX_MS = 4 * 3600 * 1000 + 10 * 60 * 1000;

/**
 * Hands a conversation's outbox to the reply path in order, deleting each item once handed over.
 * Every step is idempotent, so a runtime that dies part-way, or two replicas handing over the same
 * items, deliver each output once: a web reply is appended under its message id and a WhatsApp reply
 * queued under it (a row no longer queued is skipped), an app event appended under its outbox id.
 * A WhatsApp reply goes only once every earlier reply of its conversation was sent or gave up (the
 * channel worker sends replies concurrently; WhatsApp shows them in the order they arrive). App events
 * go to web conversations only: WhatsApp has no app to receive them (logged and dropped). A handoff
 * node's item becomes the conversation.handoff event (HandoffEvents), on both channels.
 */
@Injectable()
export class OutboxHandover {
  private readonly logger = new Logger('OutboxHandover');

  constructor(
    private readonly runs: BotRunRepository,
    private readonly delivery: ReplyDelivery,
    private readonly events: SdkEventStore,
    private readonly handoffs: HandoffEvents,
  ) {}

  /** How many items were handed over (0 when the outbox was empty or the conversation is gone). */
  async handOver(conversationId: string): Promise<number> {
    // Read after the turn committed: a WhatsApp reply's window judgement uses the user's latest message.
    const batch = await this.runs.handover(conversationId);
    if (!batch) return 0;
    const { conversation, items } = batch;
    if (conversation.channel === 'web') return this.handOverWeb(conversation, items);
    if (items.length === 0) return 0;
    for (const item of items) {
      if (item.kind === 'reply') {
        if (item.message) await this.reply(conversation, item.message);
      } else if (item.kind === 'handoff') {
        await this.handoffs.handoff(conversation, item.id, item.reason);
      } else {
        this.logger.warn(`conversation ${conversation.id}: app event ${(item.event as { code?: string } | null)?.code ?? ''} dropped (WhatsApp has no app to receive it)`);
      }
      await this.runs.deleteOutboxItem(item.id);
    }
    return items.length;
  }

  /**
   * Web: every item onto the user's event stream in order (one Redis call), then all of them recorded at
   * once. Also takes the items a turn just wrote when nothing older waits, so the outbox is not read back.
   */
  async handOverWeb(conversation: BotRunConversation, items: readonly HandoverItem[]): Promise<number> {
    if (items.length === 0) {
      // The turn is over: the chat page's "typing…" goes, also when the bot said nothing.
      await this.delivery
        .typing(conversation.botId, conversation.userId, false)
        .catch((err: Error) => this.logger.warn(`conversation ${conversation.id}: typing-off event not appended: ${err.message}`));
      return 0;
    }
    const sent: string[] = [];
    const appends: Array<{ event: WireBotEvent; dedupeId?: string }> = [];
    for (const item of items) {
      // Told before the items are marked done: a failure leaves them all in the outbox for the retried job.
      if (item.kind === 'handoff') await this.handoffs.handoff(conversation, item.id, item.reason);
      else if (item.kind === 'event') {
        appends.push({ event: item.event as unknown as WireBotEvent, dedupeId: item.id });
      } else if (item.message?.status === 'queued') {
        const { event, dedupeId } = webReplyEvent(item.message);
        appends.push({ event, dedupeId });
        sent.push(item.message.id);
      }
    }
    // The turn is over: after its replies, the chat page's "typing…" goes (a signal, not deduplicated).
    appends.push({ event: webTypingEvent(false) });
    await this.events.appendMany(conversation.botId, conversation.userId, appends);
    await this.runs.completeWebHandover(
      items.map((i) => i.id),
      sent,
    );
    return items.length;
  }

  private async reply(conversation: BotRunConversation, row: ConversationMessageRow): Promise<void> {
    if (conversation.channel === 'whatsapp' && row.status === 'queued') await this.waitForEarlierReplies(conversation.id, row.seq);
    const outcome = await this.delivery.handOver(conversation, row);
    if (outcome === 'failed') this.logger.warn(`conversation ${conversation.id}: reply ${row.id} not sent (the user's WhatsApp window is closed or the number is gone)`);
  }

  private async waitForEarlierReplies(conversationId: string, seq: bigint): Promise<void> {
    const deadline = Date.now() + ORDER_WAIT_MS;
    while (await this.runs.hasUnsentBefore(conversationId, seq, new Date(Date.now() - ORDER_HOLD_MAX_MS))) {
      if (Date.now() >= deadline) throw new ReplyOrderWaitError(conversationId);
      await sleep(ORDER_POLL_MS);
    }
  }
}
