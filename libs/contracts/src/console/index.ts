export * from './account.dto.js';
export * from './message-log.dto.js';
export * from './members.dto.js';
