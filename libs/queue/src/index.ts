export * from './redis-connections.js';
export * from './queue.module.js';
