export type MessageStatusName = 'queued' | 'processing' | 'sent' | 'delivered' | 'read' | 'failed';

/** Answer of GET /v1/messages/:msgId. */
export interface MessageStatusResponse {
  msgId: string;
  botId: string;
  channel: string;
  recipient: string;
  status: MessageStatusName;
  attempts: number;
  providerMessageId: string | null;
  lastError: { code: string | null; text: string | null } | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  /** When Meta reported the message delivered / read (status webhooks); null until then. */
  deliveredAt: string | null;
  readAt: string | null;
}
