export * from './health.module.js';
export * from './metrics-access.js';
