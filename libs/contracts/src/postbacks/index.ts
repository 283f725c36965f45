export * from './postback.job.js';
export * from './standard-webhook-signature.js';
export * from './public-address.js';
export * from './non-public-address.error.js';
export * from './unresolvable-host.error.js';
export * from './postback-settings.dto.js';
export * from './lifecycle-stream.js';
