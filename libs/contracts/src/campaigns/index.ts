export * from './campaign.dto.js';
export * from './campaign-plan.job.js';
export * from './campaign-message-id.js';
export * from './messaging-limit.js';
