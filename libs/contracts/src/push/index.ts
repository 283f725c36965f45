export * from './push-rpc.js';
export * from './push-queues.js';
export * from './fcm-data.js';
export * from './bot-config.dto.js';
export * from './device.dto.js';
export * from './notification.dto.js';
export * from './fcm-quota.dto.js';
