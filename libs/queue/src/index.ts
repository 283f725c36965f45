export * from './redis-connections.js';
export * from './redis-unavailable.error.js';
export * from './queue.module.js';
export * from './queue-jobs.js';
export * from './final-attempt.js';
export * from './stalled-limit.js';
export * from './stalled-job-settler.js';
export * from './worker-base.js';
