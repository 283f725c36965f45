import type { OpenAPIObject } from '@nestjs/swagger';
import { CAROUSEL_TRIGGER_PATH } from './carousel-trigger.route.js';

const errorBody = { type: 'object', properties: { message: { type: 'string' }, status: { type: 'string', enum: ['error'] } } };

/** The trigger is a Fastify route (carousel-trigger.route.ts), which the Swagger scanner does not see: its entry is written here. */
export function documentCarouselTrigger(document: OpenAPIObject): OpenAPIObject {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: errorBody } } });
  document.paths[CAROUSEL_TRIGGER_PATH] = {
    post: {
      operationId: 'CarouselTrigger_push',
      tags: ['carousel'],
      summary: 'Trigger a carousel template for one mobile number (queued; 200 means the job is durable)',
      security: [{ 'x-api-key': [] }],
      parameters: [
        { name: 'bot', in: 'query', required: true, description: 'Id of the bot that owns the template', schema: { type: 'string' } },
        { name: 'x-api-key', in: 'header', required: true, description: "An API key of that bot", schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        description: 'The recipient and the carousel to send (docs/api.md); a 400 names the first field that breaks a rule',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TriggerCarouselDto' } } }, // filled from the DTO's rules (withValidatorSchemas)
      },
      responses: {
        '200': {
          description: 'Queued',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { message: { type: 'string' }, status: { type: 'string', enum: ['success'] }, msgId: { type: 'string', format: 'uuid' } },
              },
            },
          },
        },
        '400': error('A field is missing or invalid; the message names it'),
        '401': error('Missing, unknown or revoked API key, or a key of another bot'),
        '500': error('Redis or Postgres unavailable'),
      },
    },
  };
  return document;
}
