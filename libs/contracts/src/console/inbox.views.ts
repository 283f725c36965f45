// Answer shapes of the console's inbox (GET /v1/bots/:botId/inbox/...): browser-safe, no decorators.
import type { ConversationMessageView, MessageSender } from '../conversations/message-content.js';

/** The inbox's filters: waiting for an agent, assigned to the caller, open with the bot, closed, or every conversation. */
export const INBOX_FILTERS = ['all', 'waiting', 'mine', 'bot', 'closed'] as const;
export type InboxFilterName = (typeof INBOX_FILTERS)[number];

/** Where the bot is: `waiting` a journey waits for the user, `handoff` a person has it, `ended`/`none` closed. */
export type InboxBotStatus = 'waiting' | 'handoff' | 'ended' | 'none';

export interface InboxMemberRef {
  userId: string;
  email: string;
}

export interface InboxConversationItem {
  id: string;
  channel: 'web' | 'whatsapp';
  /** web: the SDK user id (a hash); whatsapp: the user's number. */
  userId: string;
  status: InboxBotStatus;
  journey: string | null;
  node: string | null;
  assignee: InboxMemberRef | null;
  /** The user's messages after the agents last read the conversation. */
  unread: number;
  lastMessage: { direction: 'inbound' | 'outbound'; preview: string; at: string } | null;
  createdAt: string;
}

export interface InboxCountsView {
  waiting: number;
  mine: number;
  bot: number;
  closed: number;
  /** Unread user messages in conversations waiting for an agent or assigned to the caller. */
  unread: number;
}

export interface InboxListResponse {
  conversations: InboxConversationItem[];
  counts: InboxCountsView;
  /** The `cursor` of the next page; null on the last one. */
  next: string | null;
}

export interface InboxStepView {
  id: string;
  at: string;
  version: number;
  journey: string;
  node: string;
  kind: string;
  outcome: string;
  error: string | null;
  durationMs: number;
  /** Function nodes: the sandbox's time. */
  sandboxMs: number | null;
}

export interface InboxNoteView {
  id: string;
  text: string;
  author: InboxMemberRef | null;
  createdAt: string;
}

/**
 * Who wrote a message of the transcript, as the bot's API says (MessageSender), a member who answered
 * from the inbox with their e-mail (null once their account is deleted).
 */
export type InboxMessageSender = Exclude<MessageSender, { kind: 'agent' }> | (Extract<MessageSender, { kind: 'agent' }> & { email: string | null });

/** A message of the inbox's transcript: the API's message and who sent it. */
export interface InboxMessageView extends ConversationMessageView {
  sentBy: InboxMessageSender;
}

export interface InboxConversationResponse {
  conversation: {
    id: string;
    channel: 'web' | 'whatsapp';
    userId: string;
    createdAt: string;
    lastInboundAt: string | null;
    /** WhatsApp: whether a free-form reply may go now (within 24 h of the user's last message); web: always true. */
    replyWindowOpen: boolean;
    assignee: InboxMemberRef | null;
    unread: number;
  };
  /** The bot's state; null before its first turn. */
  bot: { status: InboxBotStatus; version: number | null; journey: string | null; node: string | null; variables: unknown; updatedAt: string } | null;
  /** The bot's journeys (its published version's), for a hand-back to one. */
  journeys: string[];
  /** The newest 200 messages, oldest first. */
  messages: InboxMessageView[];
  /** Whether the conversation has messages older than the first of `messages` (read them with GET …/messages?before=). */
  olderMessages: boolean;
  /** The newest 200 steps of the bot, oldest first. */
  trace: InboxStepView[];
  notes: InboxNoteView[];
}

/** GET /v1/bots/:botId/inbox/conversations/:id/messages?before=&limit=: the messages just before `before`. */
export interface InboxMessagesResponse {
  /** Oldest first; the last is the one just before `before`. */
  messages: InboxMessageView[];
  /** Whether the conversation has messages older than the first of `messages`. */
  olderMessages: boolean;
}

export interface CannedResponseView {
  id: string;
  title: string;
  text: string;
  quickReplies: string[];
  updatedAt: string;
}
