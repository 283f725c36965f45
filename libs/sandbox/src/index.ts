export * from './http-json-server.js';
export * from './whatsapp-cloud-sandbox.js';
