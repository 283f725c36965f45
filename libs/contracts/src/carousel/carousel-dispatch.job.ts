import type { ChannelName } from './trigger-carousel.dto.js';

/** A card button's value as the worker sends it; `index` is the button's position among the template card's buttons. */
export type DispatchButton = { type: 'quick_reply'; index: number; payload: string } | { type: 'url'; index: number; text: string };

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
  /** Values of the {{n}} placeholders of the message body above the cards. */
  bodyParameters?: string[];
  cards: Array<{ mediaLink: string; bodyParameters?: string[]; buttons?: DispatchButton[] }>;
  /** Throttling answers of Meta so far (the worker sets it when it delays the message for one). */
  throttles?: number;
  /** Other transient failures so far (5xx, timeouts, network): the worker sets it when it delays the message for one. */
  retries?: number;
  /** The trigger's config.validitySeconds; without it DEFAULT_VALIDITY_SECONDS. */
  validitySeconds?: number;
  /**
   * The wamid the Cloud API answered, written to the job by the worker before it records the send in
   * Postgres: a run that finds it records the send and never sends again.
   */
  providerMessageId?: string;
  /** The trigger's config.postbackUrl (checked by the gateway), stored with the message. */
  postbackUrl?: string;
  /** The trigger's config.customPayload, stored with the message and echoed in its postbacks. */
  customPayload?: unknown;
  /**
   * The body fingerprint of a trigger sent with an Idempotency-Key (which this message then holds),
   * stored with the message: a repeat of the key compares it to tell a replay from another body.
   */
  idempotencyFingerprint?: string;
  /**
   * A campaign's message (its id derived from the campaign and the recipient): sent at most once. A
   * claim that finds the message mid-attempt (a worker died after claiming it, perhaps after Meta
   * accepted it) fails it as `outcome_unknown` rather than sending again; paused campaigns hold it.
   */
  campaignId?: string;
}
