export * from './bot-definition.js';
export * from './bot-run.js';
export * from './function-runner.js';
export * from './bot-turn.job.js';
export * from './definition-error-text.js';
export * from './conversation-handoff.js';
export * from './edge-labels.js';
