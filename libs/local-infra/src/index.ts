export * from './ports.js';
export * from './postgres.js';
export * from './redis.js';
export * from './redis-cluster.js';
export * from './pgbouncer.js';
