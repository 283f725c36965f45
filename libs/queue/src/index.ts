export * from './redis-connections.js';
export * from './queue.module.js';
export * from './stalled-limit.js';
export * from './stalled-job-settler.js';
