export * from './sdk-event.store.js';
export * from './message-view.js';
export * from './reply-delivery.js';
