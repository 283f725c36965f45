import type { ChannelName } from './trigger-carousel.dto.js';

/**
 * Job `send` on QueueNames.carouselDispatch; the job id is the message id, so a message is queued once.
 * The job is the message until its first delivery attempt: the worker creates the `messages` row from it
 * (created_at: the job's timestamp).
 */
export interface CarouselDispatchJob {
  messageId: string;
  botId: string;
  templateId: string;
  senderId: string;
  channel: ChannelName;
  /** Digits only (the leading + removed). */
  recipient: string;
  cards: Array<{ mediaLink: string; bodyParameters?: string[] }>;
  /** The trigger's config.postbackUrl (checked by the gateway), stored with the message. */
  postbackUrl?: string;
  /** The trigger's config.customPayload, stored with the message and echoed in its postbacks. */
  customPayload?: unknown;
}
