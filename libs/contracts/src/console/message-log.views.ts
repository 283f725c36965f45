import type { MessageStatusResponse } from '../carousel/message-status.dto.js';

export const MESSAGE_STATUSES = ['queued', 'processing', 'sent', 'delivered', 'read', 'failed'] as const;

/** One message of the log: its status answer plus the template and sender it used. */
export interface MessageLogEntry extends MessageStatusResponse {
  templateName: string;
  sender: string;
}

export interface MessageLogResponse {
  messages: MessageLogEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}
