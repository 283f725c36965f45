import type { OpenAPIObject } from '@nestjs/swagger';
import { CAROUSEL_TRIGGER_PATH } from './carousel-trigger.route.js';

const errorBody = { type: 'object', properties: { message: { type: 'string' }, status: { type: 'string', enum: ['error'] } } };

/** The trigger is a Fastify route (carousel-trigger.route.ts), which the Swagger scanner does not see: its entry is written here. */
export function documentCarouselTrigger(document: OpenAPIObject): OpenAPIObject {
  const rateHeaders = {
    'RateLimit-Limit': { description: "The bot's trigger quota per minute", schema: { type: 'integer' } },
    'RateLimit-Remaining': { description: 'Triggers left in the current window', schema: { type: 'integer' } },
    'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  };
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };
  const error = (description: string, headers: NonNullable<NonNullable<OpenAPIObject['components']>['headers']> = rateHeaders) => ({
    description,
    headers,
    content: { 'application/json': { schema: errorBody } },
  });
  document.paths[CAROUSEL_TRIGGER_PATH] = {
    post: {
      operationId: 'CarouselTrigger_push',
      tags: ['carousel'],
      summary: 'Trigger a carousel template for one mobile number (queued; 200 means the job is durable)',
      security: [{ 'x-api-key': [] }],
      parameters: [
        { name: 'bot', in: 'query', required: true, description: 'Id of the bot that owns the template', schema: { type: 'string' } },
        { name: 'x-api-key', in: 'header', required: true, description: 'An API key of that bot', schema: { type: 'string' } },
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Same bot, key and body within 24 h: the first answer again (same msgId, header Idempotent-Replayed: true), no second message. ' +
            'The same key with another body: 422. A request refused (400, 429) keeps nothing: its key may be sent again.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$', minLength: 1, maxLength: 255 },
        },
      ],
      requestBody: {
        required: true,
        description: 'The recipient and the carousel to send (docs/api.md); a 400 names the first field that breaks a rule',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TriggerCarouselDto' } } }, // filled from the DTO's rules (withValidatorSchemas)
      },
      responses: {
        '200': {
          description: 'Queued (or, for a repeated Idempotency-Key, queued by the first request: Idempotent-Replayed: true)',
          headers: { ...rateHeaders, 'Idempotent-Replayed': { description: "'true' when this is the first answer of the same Idempotency-Key again", schema: { type: 'string' } } },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { message: { type: 'string' }, status: { type: 'string', enum: ['success'] }, msgId: { type: 'string', format: 'uuid' } },
              },
            },
          },
        },
        '400': error('A field, or the Idempotency-Key (1-255 visible ASCII characters), is missing or invalid; the message names it'),
        '401': error('Missing, unknown or revoked API key, or a key of another bot', {}),
        '422': error('This Idempotency-Key was already used with a different body'),
        '429': error("The bot's trigger quota for the current minute is used up; retry after Retry-After", { ...rateHeaders, ...retryAfter }),
        '500': error('Redis or Postgres unavailable', retryAfter),
      },
    },
  };
  return document;
}
