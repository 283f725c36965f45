export * from './account.dto.js';
export * from './message-log.dto.js';
export * from './message-log.views.js';
export * from './message-events.js';
export * from './members.dto.js';
export * from './devices.dto.js';
export * from './whatsapp.dto.js';
export * from './whatsapp.views.js';
