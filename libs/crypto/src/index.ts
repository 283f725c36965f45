export * from './secret-box.js';
export * from './tokens.js';
export * from './crypto.module.js';
