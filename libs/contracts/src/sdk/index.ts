export * from './chat-token.js';
export * from './json-object-string.js';
export * from './start-session.dto.js';
export * from './app-event.dto.js';
export * from './bot-event.dto.js';
export * from './stream-frames.js';
export * from './webhook.dto.js';
export * from './webhook-signature.js';
