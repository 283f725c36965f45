import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { type ConversationMessageView, WEB_CHAT_EVENT, WEB_CHAT_TYPING_EVENT, WHATSAPP_SESSION_WINDOW_MS, type WireBotEvent } from '@platform/contracts';
import { ConversationRepository, type ConversationChannel, type ConversationMessageRow } from '@platform/database';
import { ConversationReplyQueue, withTimeout } from '@platform/queue';
import { toChatMessageView, toMessageView } from './message-view.js';
import { SdkEventStore } from './sdk-event.store.js';

/** What the reply path reads of a conversation (a `conversations` row). */
export interface ReplyConversation {
  id: string;
  botId: string;
  channel: ConversationChannel;
  userId: string;
  senderId: string | null;
  lastInboundAt: Date | null;
}

/** Why WhatsApp would refuse a session message now: the code and text the reply is failed with. */
export interface ReplyRefusal {
  code: 'window_closed' | 'no_sender';
  text: string;
}

/** What became of a reply handed over by `handOver`. */
export type HandOverOutcome = 'sent' | 'queued' | 'failed' | 'skipped';

/**
 * The delivery of a bot reply whose row is written (status `queued`), shared by the reply API
 * (gateway) and hosted bots (bot runtime): web chat straight onto the user's SDK event stream (the
 * event appended under the message id, so a second delivery of the same row appends nothing), then
 * recorded sent; WhatsApp as a conversation-reply job keyed by the message id, which the channel worker
 * sends (BullMQ keeps one job per id, and the worker skips a row no longer queued).
 */
@Injectable()
export class ReplyDelivery {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly events: SdkEventStore,
    private readonly core: CoreEnv,
    private readonly replies: ConversationReplyQueue,
  ) {}

  /** Delivers the row; throws when Redis cannot take it (the caller decides whether that fails the reply). */
  async deliver(conversation: ReplyConversation, row: ConversationMessageRow): Promise<ConversationMessageView> {
    if (conversation.channel === 'web') {
      const view = await this.appendWeb(conversation, row);
      await this.conversations.markSent(row.id, `web:${row.id}`);
      return view;
    }
    await withTimeout(this.replies.add('whatsapp', { messageId: row.id, botId: conversation.botId }, { jobId: row.id }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the reply');
    return toMessageView(row);
  }

  /**
   * Puts a web reply on the user's event stream as sent (under its message id: a second append of the
   * same row appends nothing); recording it sent is the caller's, so a batch can record many at once.
   */
  async appendWeb(conversation: ReplyConversation, row: ConversationMessageRow): Promise<ConversationMessageView> {
    const { event, dedupeId, view } = webReplyEvent(row);
    await this.events.append(conversation.botId, conversation.userId, event, { dedupeId });
    return view;
  }

  /**
   * Tells the user's chat page the bot is working on their message (`typing`), or has stopped. Not
   * deduplicated: a stale one is ignored by the page from its time.
   */
  async typing(botId: string, userId: string, typing: boolean, at = new Date()): Promise<void> {
    await this.events.append(botId, userId, webTypingEvent(typing, at));
  }

  /**
   * Queues WhatsApp's read receipt and typing indicator for the user's message `messageId` (one job per
   * message: a message Meta sends again is acknowledged once). The channel worker sends it.
   */
  async markRead(botId: string, messageId: string): Promise<void> {
    await withTimeout(this.replies.add('read', { kind: 'read', messageId, botId }, { jobId: `read-${messageId}` }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the read receipt');
  }

  /**
   * Hands over a reply written earlier (a hosted bot's outbox): a row no longer queued was handed over
   * before and is skipped; a WhatsApp reply WhatsApp would refuse (the user's 24-hour window closed, or
   * the number gone) is recorded failed instead of sent. Delivery failures throw, leaving the row queued.
   */
  async handOver(conversation: ReplyConversation, row: ConversationMessageRow, now = Date.now()): Promise<HandOverOutcome> {
    if (row.status !== 'queued') return 'skipped';
    if (conversation.channel === 'whatsapp') {
      const refusal = whatsAppRefusal(conversation, now);
      if (refusal) {
        await this.conversations.markAttemptFailed(row.id, refusal.code, refusal.text, true);
        return 'failed';
      }
    }
    const view = await this.deliver(conversation, row);
    return view.status === 'sent' ? 'sent' : 'queued';
  }
}

/** Why a WhatsApp session message to this conversation would be refused now, or null when it may go. */
export function whatsAppRefusal(conversation: Pick<ReplyConversation, 'senderId' | 'lastInboundAt'>, now = Date.now()): ReplyRefusal | null {
  const last = conversation.lastInboundAt;
  if (!last || now - last.getTime() > WHATSAPP_SESSION_WINDOW_MS) {
    return { code: 'window_closed', text: `The user's 24-hour WhatsApp window is closed (last message ${last ? last.toISOString() : 'never'})` };
  }
  if (!conversation.senderId) return { code: 'no_sender', text: 'The WhatsApp number this user wrote to is no longer set up for the bot' };
  return null;
}

/** A web reply as the user's stream carries it, sent, under its message id (appended once however often handed over). */
export function webReplyEvent(row: ConversationMessageRow): { event: WireBotEvent; dedupeId: string; view: ConversationMessageView } {
  const sent = { ...row, status: 'sent' as const };
  // The page's copy carries `seq`: it places the message where the transcript will have it after a reload.
  const data = JSON.stringify(toChatMessageView(sent));
  return { event: { code: WEB_CHAT_EVENT.platformCode, data: { code: WEB_CHAT_EVENT.code, data } }, dedupeId: row.id, view: toMessageView(sent) };
}

/** The chat page's typing signal: the bot started (true) or stopped (false) working on the user's message, at `at`. */
export function webTypingEvent(typing: boolean, at = new Date()): WireBotEvent {
  return { code: WEB_CHAT_TYPING_EVENT.platformCode, data: { code: WEB_CHAT_TYPING_EVENT.code, data: JSON.stringify({ typing, at: at.toISOString() }) } };
}
