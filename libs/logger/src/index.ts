export * from './logger.js';
export * from './lazy-child-logger.js';
export * from './request-log.js';
