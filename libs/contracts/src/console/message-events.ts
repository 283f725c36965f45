import type { MessageStatusName } from '../carousel/message-status.dto.js';

/** Path of the message log's live stream (Server-Sent Events), opened with a ticket from MESSAGE_STREAM_TICKET_PATH. */
export const MESSAGE_STREAM_PATH = '/v1/bots/:botId/messages/stream';
export const MESSAGE_STREAM_TICKET_PATH = '/v1/bots/:botId/messages/stream-ticket';

/** Seconds a stream ticket may wait before it is used; it opens one stream, once. */
export const MESSAGE_STREAM_TICKET_TTL_SECONDS = 30;

/** Answer of POST /v1/bots/:botId/messages/stream-ticket. */
export interface MessageStreamTicketResponse {
  /** Single-use; pass as `?ticket=` to the stream (an EventSource cannot send an Authorization header). */
  ticket: string;
  expiresIn: number;
  /** The stream's path with the ticket, ready for `new EventSource(url)`. */
  url: string;
}

/**
 * One `event: status` of the stream: a message of the bot was queued (accepted by a trigger; its job is
 * in Redis) or changed status. `recipient` comes with `queued` only; `error` with `failed` only.
 */
export interface MessageLiveEvent {
  msgId: string;
  status: Extract<MessageStatusName, 'queued' | 'sent' | 'delivered' | 'read' | 'failed'>;
  /** ISO 8601: when it was queued, or when the status changed. */
  at: string;
  recipient?: string;
  error?: { code: string | null; text: string | null };
}

/** `event: end` data: the stream closes (its lifetime is up, or the server stops); open a new one with a new ticket. */
export interface MessageStreamEnd {
  reason: string;
}
