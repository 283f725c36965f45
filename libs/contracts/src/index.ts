export * from './queues.js';
export * from './common/api-response.js';
export * from './common/validation-errors.js';
export * from './carousel/trigger-carousel.dto.js';
export * from './carousel/carousel-dispatch.job.js';
export * from './carousel/message-status.dto.js';
export * from './common/ids.js';
