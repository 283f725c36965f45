export * from './expiring-map.js';
export * from './node-options.js';
export * from './run-main.js';
export * from './startup-error.js';
export * from './tick-batcher.js';
export * from './clock.js';
