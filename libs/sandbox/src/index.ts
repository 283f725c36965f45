export * from './http-json-server.js';
export * from './whatsapp-cloud-sandbox.js';
export * from './whatsapp-status-poster.js';
export * from './google-oauth-sandbox.js';
export * from './fcm-sandbox.js';
export * from './bot-webhook-server.js';
export * from './postback-receiver.js';
