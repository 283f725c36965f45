export * from './meta-template.js';
export * from './graph-api.error.js';
export * from './no-business-account.error.js';
export * from './graph-templates.client.js';
export * from './template-sync.service.js';
export * from './template-sync.module.js';
export * from './graph-phone-number.client.js';
export * from './messaging-limit-reader.js';
