import type { OpenAPIObject } from '@nestjs/swagger';
import { PHONE_NUMBER, SUPPORTED_CHANNELS } from '@platform/contracts';
import { CAROUSEL_TRIGGER_PATH } from './carousel-trigger.route.js';

const errorBody = { type: 'object', properties: { message: { type: 'string' }, status: { type: 'string', enum: ['error'] } } };

const phone = (description: string) => ({ type: 'string', pattern: PHONE_NUMBER.source, description });

/** TriggerCarouselDto's rules as JSON Schema (the card count must also equal the template's). */
const requestBody = {
  type: 'object',
  required: ['userDetails', 'notification'],
  additionalProperties: false,
  properties: {
    userDetails: {
      type: 'object',
      required: ['number'],
      additionalProperties: false,
      properties: { number: phone('Recipient, with country code: 8-15 digits, optional leading +') },
    },
    notification: {
      type: 'object',
      required: ['templateId', 'type', 'sender', 'params'],
      additionalProperties: false,
      properties: {
        templateId: { type: 'string', minLength: 1, description: 'Id of a carousel template of the bot' },
        type: { type: 'string', enum: [...SUPPORTED_CHANNELS], description: 'The messaging channel' },
        sender: phone("One of the bot's sender numbers on that channel"),
        params: {
          type: 'object',
          required: ['cards'],
          additionalProperties: false,
          properties: {
            cards: {
              type: 'array',
              minItems: 1,
              maxItems: 10,
              description: "One entry per card; exactly as many as the template's cards",
              items: {
                type: 'object',
                required: ['media'],
                additionalProperties: false,
                properties: {
                  media: {
                    type: 'object',
                    required: ['mediaLink'],
                    additionalProperties: false,
                    properties: { mediaLink: { type: 'string', format: 'uri', maxLength: 2048, description: 'http(s) link to the card header image or video' } },
                  },
                  bodyParameters: { type: 'array', maxItems: 20, items: { type: 'string' }, description: "Values of the card body's {{n}} placeholders" },
                },
              },
            },
          },
        },
      },
    },
  },
};

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
        content: { 'application/json': { schema: requestBody } },
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
