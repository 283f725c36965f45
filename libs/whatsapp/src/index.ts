// Everything the platform knows of WhatsApp: the Cloud API client and what its answers mean, rendering
// messages for it, pacing a number's sends, reading Meta's webhooks, and templates.
export * from './cloud-api/cloud-api-answer.js';
export * from './cloud-api/throttle-delay.js';
export * from './cloud-api/whatsapp-cloud.client.js';
export * from './cloud-api/read-receipt.js';
export * from './rendering/whatsapp-carousel.renderer.js';
export * from './rendering/whatsapp-session.renderer.js';
export * from './pacing/sender-pacer.js';
export * from './webhooks/hub-signature.js';
export * from './webhooks/inbound-message.js';
export * from './webhooks/status-event.js';
export * from './webhooks/status-transitions.js';
export * from './webhooks/webhook-notification.js';
export * from './webhooks/webhook-envelope.error.js';
export * from './templates/index.js';
export * from './delivery/retry-schedule.js';
