export * from './postback.job.js';
export * from './postback-settings.dto.js';
export * from './lifecycle-stream.js';
