export * from './api-keys/api-key-format.js';
export * from './api-keys/api-key.service.js';
export * from './api-keys/api-key.guard.js';
export * from './auth.module.js';
