export * from './callback.job.js';
export * from './callback-settings.dto.js';
export * from './callback-url.js';
export * from './standard-webhook-signature.js';
export * from './public-address.js';
export * from './non-public-address.error.js';
export * from './unresolvable-host.error.js';
export * from './legacy-callback-queues.js';
