export * from './lifecycle-stream.js';
