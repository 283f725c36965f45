export * from './callback.job.js';
export * from './callback-settings.dto.js';
export * from './callback-url.js';
export * from './legacy-callback-queues.js';
