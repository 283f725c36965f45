import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import {
  CannedResponseDto,
  CannedResponseView,
  INBOX_FILTERS,
  InboxBotStatus,
  InboxConversationResponse,
  InboxFilterName,
  InboxListResponse,
  InboxMemberRef,
  InboxMessageSender,
  InboxMessageView,
  InboxMessagesResponse,
  MessageContent,
  SendConversationMessageDto,
  WHATSAPP_SESSION_WINDOW_MS,
  fileLabel,
  isUuid,
} from '@platform/contracts';
import { toMessageView } from '@platform/conversations';
import {
  BotDefinitionRepository,
  BotInputRepository,
  BotTraceRepository,
  CannedResponseRow,
  ChatPageRepository,
  ConversationMessageRow,
  ConversationRepository,
  InboxRepository,
  MembershipRepository,
} from '@platform/database';
import type { Prisma } from '@platform/database';
import { BotInputsService } from '../bots/bot-inputs.service.js';
import { ConversationHandoffEvents } from '../bots/conversation-handoff-events.js';
import { toStepView } from '../bots/step-view.js';
import { ConversationService, ReplyOutcome } from '../conversations/conversation.service.js';
import { attachmentIdOf } from '../web-chat-page/chat-attachment.service.js';

const PAGE_MAX = 100;
const PAGE_DEFAULT = 25;
/** How much of a conversation the view shows: its newest messages and steps. */
const VIEW_ITEMS = 200;
/** How many older messages one read further back may ask for (the view's own size). */
const OLDER_MAX = VIEW_ITEMS;
const OLDER_DEFAULT = 50;
const CURSOR = /^(\d{1,19})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The signed-in member acting in the inbox. */
export interface InboxMember {
  userId: string;
  email: string;
}

export interface InboxOlderQuery {
  before?: unknown;
  limit?: unknown;
}

export interface InboxListQuery {
  filter?: unknown;
  channel?: unknown;
  cursor?: unknown;
  limit?: unknown;
}

type Conversation = NonNullable<Awaited<ReturnType<ConversationRepository['find']>>>;

/**
 * The console's inbox over a hosted bot's conversations: the list and one conversation's view, and what
 * agents do there. Taking over and handing back use the same state and inputs as the handoff API
 * (docs/bots.md#handoff-and-handback); replies go through the reply API's path (ConversationService.reply).
 */
@Injectable()
export class InboxService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly inbox: InboxRepository,
    private readonly trace: BotTraceRepository,
    private readonly inputs: BotInputRepository,
    private readonly botInputs: BotInputsService,
    private readonly definitions: BotDefinitionRepository,
    private readonly members: MembershipRepository,
    private readonly replies: ConversationService,
    private readonly events: ConversationHandoffEvents,
    private readonly files: ChatPageRepository,
  ) {}

  /** The signed-in member as the inbox names them. */
  async member(userId: string): Promise<InboxMember> {
    return { userId, email: (await this.members.emailOf(userId)) ?? '' };
  }

  async list(botId: string, me: string, q: InboxListQuery): Promise<InboxListResponse> {
    const filter = q.filter === undefined ? 'all' : q.filter;
    if (typeof filter !== 'string' || !(INBOX_FILTERS as readonly string[]).includes(filter)) throw new BadRequestException(`filter must be one of ${INBOX_FILTERS.join(', ')}`);
    const channel = q.channel === undefined || q.channel === '' ? null : q.channel;
    if (channel !== null && channel !== 'web' && channel !== 'whatsapp') throw new BadRequestException('channel must be web or whatsapp');
    let after: { seq: bigint; id: string } | null = null;
    if (q.cursor !== undefined) {
      const m = typeof q.cursor === 'string' ? CURSOR.exec(q.cursor) : null;
      if (!m) throw new BadRequestException('cursor must be the next value of a previous page');
      after = { seq: BigInt(m[1]!), id: m[2]! };
    }
    const limit = q.limit === undefined ? PAGE_DEFAULT : typeof q.limit === 'string' && /^\d{1,3}$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(limit >= 1 && limit <= PAGE_MAX)) throw new BadRequestException(`limit must be an integer from 1 to ${PAGE_MAX}`);

    const [rows, counts] = await Promise.all([this.inbox.list({ botId, me, filter: filter as InboxFilterName, channel, after, limit: limit + 1 }), this.inbox.counts(botId, me, channel)]);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      conversations: page.map((r) => ({
        id: r.id,
        channel: r.channel as 'web' | 'whatsapp',
        userId: r.userId,
        status: statusOf(r.status),
        journey: r.journey,
        node: r.node,
        assignee: r.assignedUserId ? { userId: r.assignedUserId, email: r.assigneeEmail ?? '' } : null,
        unread: r.unread,
        lastMessage: r.lastAt ? { direction: r.lastDirection as 'inbound' | 'outbound', preview: preview(r.lastType, r.lastContent), at: r.lastAt.toISOString() } : null,
        createdAt: r.createdAt.toISOString(),
      })),
      counts,
      next: rows.length > limit && last ? `${last.lastSeq}_${last.id}` : null,
    };
  }

  /** The conversation as `me` sees it: its unread count is what they have not read. */
  async view(botId: string, id: string, me: string): Promise<InboxConversationResponse> {
    const conversation = await this.find(botId, id);
    const [state, inbox, readSeq, fetched, steps, notes, journeys] = await Promise.all([
      this.trace.state(conversation.id),
      this.inbox.state(conversation.id),
      this.inbox.readSeq(conversation.id, me),
      // One more than shown: whether it came says whether older messages exist, in the same query.
      this.conversations.latestMessages(conversation.id, VIEW_ITEMS + 1),
      this.inbox.latestSteps(conversation.id, VIEW_ITEMS),
      this.inbox.notes(conversation.id),
      this.journeys(botId, null),
    ]);
    const olderMessages = fetched.length > VIEW_ITEMS;
    const messages = olderMessages ? fetched.slice(1) : fetched;
    const views = await this.withSenders(messages);
    const unread = messages.filter((m) => m.direction === 'inbound' && m.seq > readSeq).length;
    return {
      conversation: {
        id: conversation.id,
        channel: conversation.channel,
        userId: conversation.userId,
        createdAt: conversation.createdAt.toISOString(),
        lastInboundAt: conversation.lastInboundAt?.toISOString() ?? null,
        replyWindowOpen: windowOpen(conversation),
        assignee: inbox.assignedUserId ? { userId: inbox.assignedUserId, email: inbox.assigneeEmail ?? '' } : null,
        unread,
      },
      bot: state ? { status: statusOf(state.status), version: state.version, journey: state.journey, node: state.node, variables: state.variables, updatedAt: state.updatedAt.toISOString() } : null,
      journeys,
      messages: views,
      olderMessages,
      trace: steps.map(toStepView),
      notes: notes.map((n) => ({ id: n.id, text: n.text, author: n.authorUserId ? { userId: n.authorUserId, email: n.authorEmail ?? '' } : null, createdAt: n.createdAt.toISOString() })),
    };
  }

  /**
   * The transcript further back: up to `limit` (1-200, default 50) messages just before the message
   * `before` (the oldest one the reader has), oldest first, and whether there are older ones still.
   */
  async olderMessages(botId: string, id: string, q: InboxOlderQuery): Promise<InboxMessagesResponse> {
    if (typeof q.before !== 'string' || !isUuid(q.before)) throw new BadRequestException('before must be the id of a message of the conversation (the oldest one shown)');
    const limit = q.limit === undefined ? OLDER_DEFAULT : typeof q.limit === 'string' && /^\d{1,3}$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(limit >= 1 && limit <= OLDER_MAX)) throw new BadRequestException(`limit must be an integer from 1 to ${OLDER_MAX}`);
    const conversation = await this.find(botId, id);
    const rows = await this.conversations.messagesBefore(conversation.id, q.before, limit + 1);
    if (rows === null) throw new BadRequestException(`before must be a message of conversation ${id}`);
    const olderMessages = rows.length > limit;
    return { messages: await this.withSenders(olderMessages ? rows.slice(1) : rows), olderMessages };
  }

  /** `me` has read the conversation up to `messageId` (the newest they were shown), or up to its newest message. Only their own mark moves. */
  async markRead(botId: string, id: string, me: string, messageId?: string): Promise<void> {
    const conversation = await this.find(botId, id);
    if ((await this.inbox.markRead(conversation.id, me, messageId ?? null)) === null) throw new BadRequestException(`messageId must be a message of conversation ${id}`);
  }

  /** The member takes the conversation: the bot pauses (state handoff) and it is assigned to them. */
  async takeOver(botId: string, id: string, member: InboxMember): Promise<void> {
    const conversation = await this.find(botId, id);
    await this.requireHosted(botId);
    await this.inputs.handoff(botId, conversation.id);
    await this.inbox.assign(botId, conversation.id, member.userId);
    await this.tell(conversation, 'conversation.taken_over', member, null);
  }

  /** The agent's reply: only while the conversation is handed off (else the bot and the agent would both answer). */
  async reply(botId: string, id: string, me: string, dto: SendConversationMessageDto, idempotencyKey?: string): Promise<ReplyOutcome> {
    const conversation = await this.find(botId, id);
    const state = await this.trace.state(conversation.id);
    if (state?.status !== 'handoff') throw new ConflictException('Take the conversation over before replying: the bot is answering it');
    // Kept with the message: the transcript names the agent who wrote it, not "the bot".
    const sent = await this.replies.reply(botId, conversation.id, dto, idempotencyKey, me);
    // An agent who answers has read what came before (their mark only: the others have not).
    await this.inbox.markRead(conversation.id, me, sent.view.id);
    return sent;
  }

  /** Back to the bot (after its handoff node) or, with `journeySlug`, to that journey started afresh. The assignment ends. */
  async handBack(botId: string, id: string, member: InboxMember, journeySlug: string | undefined): Promise<void> {
    const conversation = await this.find(botId, id);
    await this.requireHosted(botId);
    if (journeySlug === undefined) {
      if ((await this.botInputs.handback(botId, conversation.id)) === 'not_in_handoff') throw notHandedOff(id);
    } else {
      const state = await this.trace.state(conversation.id);
      const journeys = await this.journeys(botId, state?.journey ? state.version : null);
      if (!journeys.includes(journeySlug)) throw new BadRequestException(`journeySlug must name a journey of the bot (${journeys.join(', ') || 'none published'})`);
      const result = await this.inbox.handbackToJourney(botId, conversation.id, journeySlug);
      if (result === 'not_in_handoff') throw notHandedOff(id);
      await this.botInputs.wake(botId, conversation.id, result.seq);
    }
    await this.inbox.assign(botId, conversation.id, null);
    await this.tell(conversation, 'conversation.handed_back', member, journeySlug ?? null);
  }

  /** Gives the conversation to a member of the bot, or to nobody (null). */
  async assign(botId: string, id: string, userId: string | null): Promise<InboxMemberRef | null> {
    const conversation = await this.find(botId, id);
    if (userId === null) {
      await this.inbox.assign(botId, conversation.id, null);
      return null;
    }
    const email = (await this.members.roleOf(botId, userId)) ? await this.members.emailOf(userId) : null;
    if (!email) throw new BadRequestException('userId must be a member of this bot');
    await this.inbox.assign(botId, conversation.id, userId);
    return { userId, email };
  }

  async addNote(botId: string, id: string, member: InboxMember, text: string) {
    const conversation = await this.find(botId, id);
    const n = await this.inbox.addNote(conversation.id, member.userId, text.trim());
    return { id: n.id, text: n.text, author: { userId: member.userId, email: member.email }, createdAt: n.createdAt.toISOString() };
  }

  async cannedResponses(botId: string): Promise<CannedResponseView[]> {
    return (await this.inbox.cannedResponses(botId)).map(cannedView);
  }

  async createCanned(botId: string, dto: CannedResponseDto): Promise<CannedResponseView> {
    const row = await this.inbox.createCanned(botId, cannedData(dto));
    if (!row) throw new ConflictException(`A canned response titled "${dto.title.trim()}" exists already`);
    return cannedView(row);
  }

  async updateCanned(botId: string, id: string, dto: CannedResponseDto): Promise<CannedResponseView> {
    const row = isUuid(id) ? await this.inbox.updateCanned(botId, id, cannedData(dto)) : 'missing';
    if (row === 'missing') throw new NotFoundException(`No canned response ${id} for this bot`);
    if (row === 'taken') throw new ConflictException(`A canned response titled "${dto.title.trim()}" exists already`);
    return cannedView(row);
  }

  async deleteCanned(botId: string, id: string): Promise<void> {
    if (!(isUuid(id) && (await this.inbox.deleteCanned(botId, id)))) throw new NotFoundException(`No canned response ${id} for this bot`);
  }

  /** The messages as the transcript shows them: each with who sent it (the user, the bot, or the member who answered). */
  private async withSenders(rows: ConversationMessageRow[]): Promise<InboxMessageView[]> {
    const agents = await this.inbox.agentSenders(rows.filter((r) => r.direction === 'outbound').map((r) => r.id));
    return rows.map((r) => {
      const agent = agents.get(r.id);
      const sentBy: InboxMessageSender = r.direction === 'inbound' ? { kind: 'user' } : agent ? { kind: 'agent', ...agent } : { kind: 'bot' };
      return { ...toMessageView(r), sentBy };
    });
  }

  private async tell(conversation: Conversation, type: 'conversation.taken_over' | 'conversation.handed_back', member: InboxMember, journeySlug: string | null): Promise<void> {
    await this.events.publish({
      type,
      botId: conversation.botId,
      conversationId: conversation.id,
      channel: conversation.channel,
      userId: conversation.userId,
      by: 'member',
      member: { userId: member.userId, email: member.email },
      reason: null,
      journeySlug,
    });
  }

  /** The journeys of `version`, else of the published version; empty when none is published. */
  private async journeys(botId: string, version: number | null): Promise<string[]> {
    const v = version ?? (await this.definitions.publishedVersion(botId));
    const found = v === null ? null : await this.definitions.findVersion(botId, v);
    const definition = found?.definition as { journeys?: Array<{ slug?: unknown }> } | null | undefined;
    return (definition?.journeys ?? []).map((j) => j.slug).filter((s): s is string => typeof s === 'string');
  }

  /**
   * The file a web-chat user sent with message `messageId` of the conversation, as the platform stored it.
   * 404 for a message of another conversation or bot, one without a file, and WhatsApp media, which Meta
   * keeps (the message holds only Meta's media id; the platform does not fetch media with the sender's token).
   */
  async file(botId: string, id: string, messageId: string): Promise<{ contentType: string; fileName: string; bytes: Buffer }> {
    const conversation = await this.find(botId, id);
    const message = isUuid(messageId) ? await this.conversations.findMessage(messageId) : null;
    if (!message || message.conversationId !== conversation.id) throw new NotFoundException(`No message ${messageId} in conversation ${id}`);
    const content = (message.content ?? {}) as MessageContent;
    if (content.media) throw new NotFoundException('This WhatsApp file is kept by Meta, not by the platform: it cannot be opened from the console');
    const fileId = attachmentIdOf(content.attachment?.url);
    const file = fileId ? await this.files.attachment(fileId) : null;
    // The address is in the message the gateway wrote when the file came; the file must be this conversation's as well.
    if (!file || file.botId !== botId || file.conversationId !== conversation.id) throw new NotFoundException(`Message ${messageId} has no file stored by the platform`);
    return file;
  }

  private async find(botId: string, id: string): Promise<Conversation> {
    const conversation = isUuid(id) ? await this.conversations.find(botId, id) : null;
    if (!conversation) throw new NotFoundException(`No conversation ${id} for this bot`);
    return conversation;
  }

  private async requireHosted(botId: string): Promise<void> {
    if (!(await this.botInputs.hosted(botId))) throw new ConflictException('This bot has no published version: its own webhook answers its conversations, so there is no bot to pause or hand back to');
  }
}

function notHandedOff(id: string): ConflictException {
  return new ConflictException(`Conversation ${id} is not with an agent: nothing to hand back`);
}

function statusOf(status: string | null): InboxBotStatus {
  return status === 'waiting' || status === 'handoff' || status === 'ended' ? status : 'none';
}

function windowOpen(c: Conversation): boolean {
  if (c.channel !== 'whatsapp') return true;
  return c.lastInboundAt !== null && Date.now() - c.lastInboundAt.getTime() <= WHATSAPP_SESSION_WINDOW_MS;
}

/** One line for the list: a file's kind and name, the text, else what kind of message it was. */
export function preview(type: string | null, content: Prisma.JsonValue | null): string {
  const c = (content ?? {}) as { text?: unknown; image?: unknown; cards?: unknown; payload?: unknown };
  // A file the user sent: its kind and name (with its caption, which is also its text), not "attachment" or "media".
  const text =
    fileLabel(c as MessageContent) ??
    (typeof c.text === 'string' ? c.text : c.image ? 'Image' : Array.isArray(c.cards) ? `${c.cards.length} cards` : typeof c.payload === 'string' ? c.payload : (type ?? ''));
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function cannedData(dto: CannedResponseDto) {
  return { title: dto.title.trim(), text: dto.text, quickReplies: (dto.quickReplies ?? []).map((q) => q.trim()) };
}

function cannedView(r: CannedResponseRow): CannedResponseView {
  return { id: r.id, title: r.title, text: r.text, quickReplies: r.quickReplies, updatedAt: r.updatedAt.toISOString() };
}
