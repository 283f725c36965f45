export * from './config-error.js';
export * from './env-decorators.js';
export * from './env-loader.js';
export * from './env/index.js';
export * from './config.module.js';
