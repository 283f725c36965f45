export * from './test-infra.js';
export * from './seed.js';
export * from './admins.js';
export * from './oauth-browser.js';
export * from './oauth-clients.js';
export * from './polling.js';
export * from './queue-jobs.js';
export * from './movable-clock.js';
