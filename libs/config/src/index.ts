export * from './platform-config.js';
export * from './config.module.js';
export * from './start.js';
export * from './node-options.js';
