import type { OpenAPIObject } from '@nestjs/swagger';
import { WHATSAPP_WEBHOOK_PATH } from './whatsapp-webhook.route.js';

const body = (description: string, status: 'success' | 'error') => ({
  description,
  content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' }, status: { type: 'string', enum: [status] } } } } },
});
const notConfigured = body('WHATSAPP_WEBHOOK_VERIFY_TOKEN / WHATSAPP_APP_SECRET are not set', 'error');

/** Meta's WhatsApp webhook routes are Fastify routes (whatsapp-webhook.route.ts), outside the Swagger scanner: their entries are written here. */
export function documentWhatsAppWebhooks(document: OpenAPIObject): OpenAPIObject {
  const query = (name: string, description: string) => ({ name, in: 'query' as const, required: true, description, schema: { type: 'string' } });
  document.paths[WHATSAPP_WEBHOOK_PATH] = {
    get: {
      operationId: 'WhatsAppWebhook_verify',
      tags: ['whatsapp-webhooks'],
      summary: "Meta's verification handshake for the WhatsApp status webhook",
      parameters: [query('hub.mode', 'subscribe'), query('hub.verify_token', 'Must equal WHATSAPP_WEBHOOK_VERIFY_TOKEN'), query('hub.challenge', 'Echoed back when the token matches')],
      responses: {
        '200': { description: 'hub.challenge', content: { 'text/plain': { schema: { type: 'string' } } } },
        '403': body('Wrong mode or verify token', 'error'),
        '404': notConfigured,
      },
    },
    post: {
      operationId: 'WhatsAppWebhook_notify',
      tags: ['whatsapp-webhooks'],
      summary: 'Message statuses from Meta (sent, delivered, read, failed); 200 once they are recorded',
      parameters: [{ name: 'x-hub-signature-256', in: 'header', required: true, description: 'sha256=<hex HMAC-SHA256 of the raw body, keyed by WHATSAPP_APP_SECRET>', schema: { type: 'string' } }],
      requestBody: {
        required: true,
        description: 'A WhatsApp Business Account change notification; entry[].changes[field=messages].value.statuses[] and .messages[] are read (docs/api.md)',
        content: { 'application/json': { schema: { type: 'object', properties: { object: { type: 'string' }, entry: { type: 'array', items: { type: 'object' } } } } } },
      },
      responses: {
        '200': body('Every status in it is recorded (statuses of messages not recorded yet are kept until their send is)', 'success'),
        '400': body("Signed, but not JSON, or an envelope not of Meta's shape (the message names the part)", 'error'),
        '401': body('X-Hub-Signature-256 missing or not the signature of this body', 'error'),
        '404': notConfigured,
        '500': body('Postgres unavailable: Meta retries later', 'error'),
      },
    },
  };
  return document;
}
