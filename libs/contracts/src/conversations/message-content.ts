/** A quick reply: a button the user taps; the bot receives `payload` (or the title when none). */
export interface QuickReply {
  title: string;
  payload: string;
}

export interface ImageContent {
  url: string;
  caption?: string;
}

export interface CarouselCard {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  buttons: QuickReply[];
}

/** A media file the user sent on WhatsApp: Meta's media id (fetch it from the Cloud API), not the bytes. */
export interface MediaReference {
  kind: 'image' | 'video' | 'audio' | 'document' | 'sticker';
  id: string;
  mimeType?: string;
  caption?: string;
  filename?: string;
}

/** A file a web-chat user sent (stored by the platform): its address serves it with its checked type. */
export interface AttachmentContent {
  /** Absolute address of the file; unguessable, so only those given it can read it. */
  url: string;
  mimeType: string;
  filename: string;
  /** Bytes. */
  size: number;
}

export interface LocationContent {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/**
 * The content of a conversation message as bots and the chat page see it. Inbound: `text` (typed or
 * the tapped button's title) with `payload` for a quick reply or button; `media`; `location`.
 * Outbound: `text` with optional `quickReplies`, `image`, or `cards` (a carousel).
 */
export interface MessageContent {
  text?: string;
  payload?: string;
  quickReplies?: QuickReply[];
  image?: ImageContent;
  cards?: CarouselCard[];
  media?: MediaReference;
  location?: LocationContent;
  /** Web chat: a picture or file the user sent. */
  attachment?: AttachmentContent;
}

export type ConversationChannelName = 'web' | 'whatsapp';
export type InboundMessageType = 'text' | 'quick_reply' | 'button' | 'interactive' | 'media' | 'location' | 'attachment';
export type OutboundMessageType = 'text' | 'image' | 'carousel';

/** A conversation message as the API, the bot's webhook and the chat page show it. */
export interface ConversationMessageView {
  id: string;
  conversationId: string;
  direction: 'inbound' | 'outbound';
  type: string;
  content: MessageContent;
  /** Outbound: queued, sent, delivered, read or failed; inbound: null. */
  status: string | null;
  createdAt: string;
}

/**
 * A message as the hosted chat page gets it (its transcript, the answer to the user's send, the bot's
 * messages on the event stream): the view and `seq`, its place in its own conversation (a decimal
 * integer as text, 1 for the first message, larger is later), the order the transcript is read in. The
 * page orders what arrives live by it, so the conversation reads the same before and after a reload. It
 * counts this conversation's messages only (the row's platform-wide seq would show every tenant's traffic).
 */
export interface ChatMessageView extends ConversationMessageView {
  seq: string;
}

/** Who sent a message: the user, the bot (its reply API or its hosted runtime), or a member answering from the console's inbox. */
export type MessageSender = { kind: 'user' } | { kind: 'bot' } | { kind: 'agent'; userId: string };

/** A message as the bot's API lists it (`GET …/conversations/{id}/messages`): the view and who sent it. */
export interface BotApiMessageView extends ConversationMessageView {
  sentBy: MessageSender;
}

/** How the hosted chat page receives the bot's messages over the SDK event stream. */
export const WEB_CHAT_EVENT = { platformCode: 'sendWebEvent', code: 'conversation.message' } as const;

/**
 * The bot is working on the user's message (`{"typing":true,"at":"<ISO time>"}`): the chat page shows
 * "typing…" until the bot's next message, a `{"typing":false}` event, or TYPING_SHOWN_MS after `at`.
 */
export const WEB_CHAT_TYPING_EVENT = { platformCode: 'sendWebEvent', code: 'conversation.typing' } as const;
export const TYPING_SHOWN_MS = 25_000;

/** WhatsApp's customer-service window: free-form (session) messages only this long after the user's last message. */
export const WHATSAPP_SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;
