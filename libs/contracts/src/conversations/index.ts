export * from './message-content.js';
export * from './send-conversation-message.dto.js';
export * from './user-chat-message.dto.js';
export * from './conversation-reply.job.js';
export * from './file-label.js';
