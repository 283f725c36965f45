import { isDeepStrictEqual } from 'node:util';
import { BadRequestException, ConflictException, Injectable, Logger, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { ChatMessageView, ConversationMessageView, SendConversationMessageDto, WHATSAPP_SESSION_WINDOW_MS, isUuid, toOutboundContent } from '@platform/contracts';
import { ReplyDelivery, toChatMessageView } from '@platform/conversations';
import { ConversationRepository, InboundMessage } from '@platform/database';
import type { ConversationChannel } from '@platform/database';
import { BotInputsService } from '../bots/bot-inputs.service.js';
import { WebhookDispatcher } from '../callbacks/webhook-dispatcher.service.js';
import { toBotApiMessageView, toMessageView } from './message-view.js';
import { WhatsAppWindowClosedError } from './whatsapp-window-closed.error.js';

const PAGE_MAX = 200;
const PAGE_DEFAULT = 50;
const SEQ_MAX = 2n ** 63n - 1n; // a Postgres bigint

function parseCursor(cursor: unknown): bigint | null {
  if (cursor === undefined) return null;
  if (typeof cursor !== 'string' || !/^\d{1,19}$/.test(cursor) || BigInt(cursor) > SEQ_MAX) {
    throw new BadRequestException('cursor must be the next value of a previous page');
  }
  return BigInt(cursor);
}

function parseLimit(limit: unknown): number {
  if (limit === undefined) return PAGE_DEFAULT;
  const n = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
  if (!(n >= 1 && n <= PAGE_MAX)) throw new BadRequestException(`limit must be an integer from 1 to ${PAGE_MAX}`);
  return n;
}

/**
 * A reply as the API answers it: the message, and whether an earlier request with the same Idempotency-Key
 * made it (nothing sent again).
 */
export interface ReplyOutcome {
  view: ConversationMessageView;
  replayed: boolean;
}

/** Conversations: users' messages in (recorded, handed to the bot's webhook) and the bot's replies out. */
@Injectable()
export class ConversationService {
  private readonly logger = new Logger('Conversations');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly delivery: ReplyDelivery,
    private readonly botInputs: BotInputsService,
  ) {}

  /**
   * Records a user's message and queues its `message.received` call to the bot. A message Meta sent
   * again is not recorded twice; its call is queued again only while the bot has not taken it (the job
   * id is the message id, so BullMQ keeps one). A hosted bot's runtime gets it as an input first (one
   * input however often Meta sends it); its webhook, when set, still gets the call (a mirror).
   */
  async receive(inbound: InboundMessage): Promise<{ view: ConversationMessageView; created: boolean; seq: string }> {
    const { message, created } = await this.conversations.recordInbound(inbound);
    const view = toMessageView(message);
    const taker = await this.botInputs.message(inbound.botId, message.conversationId, message.id);
    // A hosted bot without a webhook has nobody to call: its input recorded the message as taken.
    if (message.webhookSettledAt === null && taker !== 'hosted') {
      await this.dispatcher.enqueue(inbound.botId, {
        type: 'message.received',
        id: message.id,
        botId: inbound.botId,
        conversationId: message.conversationId,
        channel: inbound.channel,
        userId: inbound.userId,
        message: view,
        createdAt: view.createdAt,
      });
    }
    if (created) await this.acknowledge(inbound, message.id);
    // `seq` as the chat page knows it: the message's place in its conversation, not the platform-wide row seq.
    return { view, created, seq: toChatMessageView(message).seq };
  }

  /**
   * Shows the user the bot has their message and works on it: "typing…" on the chat page, WhatsApp's
   * read receipt with its typing indicator. Best effort: a failure to queue it never fails the message.
   */
  private async acknowledge(inbound: InboundMessage, messageId: string): Promise<void> {
    try {
      if (inbound.channel === 'web') await this.delivery.typing(inbound.botId, inbound.userId, true);
      else await this.delivery.markRead(inbound.botId, messageId);
    } catch (err) {
      this.logger.warn(`message ${messageId}: the ${inbound.channel === 'web' ? 'typing indicator' : 'read receipt'} was not queued: ${(err as Error).message}`);
    }
  }

  /** The user's web-chat conversation (created on first use). */
  webConversation(botId: string, userId: string) {
    return this.conversations.upsert(botId, 'web', userId);
  }

  /** The newest messages of a web-chat user's conversation, oldest first, each with its place (`seq`). */
  async webTranscript(botId: string, userId: string, limit = PAGE_MAX): Promise<ChatMessageView[]> {
    const conversation = await this.conversations.findByUser(botId, 'web', userId);
    if (!conversation) return [];
    return (await this.conversations.latestMessages(conversation.id, limit)).map(toChatMessageView);
  }

  async find(botId: string, id: string) {
    const conversation = isUuid(id) ? await this.conversations.find(botId, id) : null;
    if (!conversation) throw new NotFoundException(`No conversation ${id} for this bot`);
    return conversation;
  }

  /**
   * The bot's message to the user: web chat straight onto the user's event stream; WhatsApp through the
   * channel worker (ReplyDelivery). With an Idempotency-Key, a repeat gets the first request's message
   * (replayed, nothing sent again), or a 422 when its reply differs. `sentByUserId`: the member answering
   * from the console's inbox (kept with the message); none when the bot answers.
   */
  async reply(botId: string, conversationId: string, dto: SendConversationMessageDto, idempotencyKey?: string, sentByUserId?: string): Promise<ReplyOutcome> {
    const outbound = toOutboundContent(dto);
    if (typeof outbound === 'string') throw new BadRequestException(outbound);
    const conversation = await this.find(botId, conversationId);
    if (conversation.channel === 'whatsapp') {
      const last = conversation.lastInboundAt;
      if (!last || Date.now() - last.getTime() > WHATSAPP_SESSION_WINDOW_MS) throw new WhatsAppWindowClosedError(last);
      if (!conversation.senderId) throw new ConflictException('The WhatsApp number this user wrote to is no longer set up for the bot');
    }
    // Scoped by the conversation's id, a key cannot meet another conversation's.
    const replyKey = idempotencyKey === undefined ? undefined : `reply:${conversation.id}:${idempotencyKey}`;
    const created = await this.conversations.createOutbound(conversation.id, outbound.type, outbound.content as object, 'queued', replyKey, sentByUserId);
    if (!created) throw new NotFoundException(`No conversation ${conversationId} for this bot`); // erased meanwhile
    const row = created.message;
    if (!created.created) {
      // As stored: plain JSON, whatever classes the DTO's nested values came as.
      if (row.type !== outbound.type || !isDeepStrictEqual(row.content, JSON.parse(JSON.stringify(outbound.content)))) {
        throw new UnprocessableEntityException('This Idempotency-Key was already used with a different reply');
      }
      return { view: toMessageView(row), replayed: true };
    }
    try {
      return { view: await this.delivery.deliver(conversation, row), replayed: false };
    } catch (err) {
      await this.conversations.markUnqueued(row.id, 'queue_unavailable', 'The reply could not be queued').catch(() => undefined);
      throw err; // withTimeout's RedisUnavailableError: the HTTP edge answers it
    }
  }

  /**
   * A page of messages after the cursor (the `next` of the previous page). `next` is null exactly when
   * no message follows the page. `cursor` and `limit` are the query's raw values.
   */
  async list(botId: string, conversationId: string, cursor: unknown, limit: unknown) {
    const after = parseCursor(cursor);
    const size = parseLimit(limit);
    const conversation = await this.find(botId, conversationId);
    const rows = await this.conversations.listMessages(conversation.id, after, size + 1);
    const page = rows.slice(0, size);
    const next = rows.length > size ? String(page[page.length - 1].seq) : null;
    return { messages: page.map(toBotApiMessageView), next };
  }

  /** Data-protection erasure: every conversation of the user with the bot (optionally one channel). */
  async erase(botId: string, userId: string, channel?: ConversationChannel): Promise<number> {
    return this.conversations.deleteUser(botId, userId, channel);
  }
}
