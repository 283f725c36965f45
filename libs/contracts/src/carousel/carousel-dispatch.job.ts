/**
 * Job on QueueNames.carouselDispatch; the job id is the message id, so a message is queued once.
 * The job is the message until its first delivery attempt: the worker creates the `messages` row from it.
 */
export interface CarouselDispatchJob {
  messageId: string;
  botId: string;
  templateId: string;
  senderId: string;
  channel: string;
  /** Digits only (the leading + removed). */
  recipient: string;
  /** When the gateway accepted the trigger (ISO 8601): the row's created_at. */
  acceptedAt: string;
  cards: Array<{ mediaLink: string; bodyParameters?: string[] }>;
}
