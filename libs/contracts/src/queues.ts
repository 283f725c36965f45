/** BullMQ queue names shared by producers and workers. */
export const QueueNames = {
  carouselDispatch: 'carousel-dispatch',
} as const;
