export * from './test-infra.js';
export * from './seed.js';
