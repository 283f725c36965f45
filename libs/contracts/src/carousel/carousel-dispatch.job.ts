/** Job on QueueNames.carouselDispatch; the job id is the message id, so a message is queued once. */
export interface CarouselDispatchJob {
  messageId: string;
  cards: Array<{ mediaLink: string; bodyParameters?: string[] }>;
}
