import { JOURNEY_SLUG, LIMITS, NODE_ID, VARIABLE_NAME } from './definition-limits.js';

/**
 * The published JSON Schema of a bot definition (draft 2020-12; `GET /v1/bot-definition.schema.json`). It is the
 * shape and the bounds; what a schema cannot say (edges that name nodes, reachability, variable types, loops that
 * never wait) is checked by validateBotDefinition. Its TypeScript mirror is libs/contracts/src/bots/bot-definition.ts
 * (bot-definition.schema.spec.ts holds them together). Node kinds are told apart by `kind` (ajv's `discriminator`,
 * which other validators read as a plain `oneOf` of disjoint `const`s).
 */

/** A string the user sees: not blank (the reply API refuses blank text). */
const visible = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' });
const nodeId = { type: 'string', pattern: NODE_ID };
const variableName = { type: 'string', pattern: VARIABLE_NAME };
const slug = { type: 'string', pattern: JOURNEY_SLUG };

const button = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: visible(LIMITS.quickReplyTitle), payload: visible(LIMITS.quickReplyPayload) },
};

const nodeBase = { id: nodeId, label: { type: 'string', maxLength: LIMITS.label } };

/** A node kind's schema: its own fields besides `id`, `label` and `kind`. */
function nodeKind(kind: string, required: string[], properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'kind', ...required],
    properties: { ...nodeBase, kind: { const: kind }, ...properties },
    ...extra,
  };
}

const quickReplies = { type: 'array', minItems: 1, maxItems: LIMITS.quickReplies, items: { $ref: '#/$defs/button' } };

const answerCheck = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
  discriminator: { propertyName: 'type' },
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        type: { const: 'text' },
        minLength: { type: 'integer', minimum: 0, maximum: LIMITS.answer },
        maxLength: { type: 'integer', minimum: 1, maximum: LIMITS.answer },
      },
    },
    { type: 'object', additionalProperties: false, properties: { type: { const: 'number' }, min: { type: 'number' }, max: { type: 'number' } } },
    { type: 'object', additionalProperties: false, properties: { type: { const: 'email' } } },
    { type: 'object', additionalProperties: false, properties: { type: { const: 'phone' } } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['choices'],
      properties: { type: { const: 'choice' }, choices: { type: 'array', minItems: 1, maxItems: LIMITS.choices, items: { $ref: '#/$defs/button' } } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['pattern'],
      properties: {
        type: { const: 'pattern' },
        pattern: { type: 'string', minLength: 1, maxLength: LIMITS.pattern },
        // No g or y: a stateful regex would answer differently on the same input.
        flags: { type: 'string', pattern: '^[imsu]{0,4}$' },
      },
    },
  ],
};

const messageNode = nodeKind(
  'message',
  [],
  {
    text: visible(LIMITS.text),
    quickReplies,
    image: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: { url: { type: 'string', minLength: 1, maxLength: LIMITS.url }, caption: { type: 'string', maxLength: LIMITS.caption } },
    },
    cards: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.cards,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'buttons'],
        properties: {
          title: visible(LIMITS.cardTitle),
          subtitle: { type: 'string', maxLength: LIMITS.cardSubtitle },
          imageUrl: { type: 'string', minLength: 1, maxLength: LIMITS.url },
          buttons: { type: 'array', maxItems: LIMITS.cardButtons, items: { $ref: '#/$defs/button' } },
        },
      },
    },
  },
  {
    // Exactly one of text, image or cards, and quick replies only with text: what the reply API accepts.
    oneOf: [{ required: ['text'] }, { required: ['image'] }, { required: ['cards'] }],
    dependentRequired: { quickReplies: ['text'] },
  },
);

const node = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string' } },
  discriminator: { propertyName: 'kind' },
  oneOf: [
    { $ref: '#/$defs/messageNode' },
    {
      $ref: '#/$defs/questionNode',
    },
    { $ref: '#/$defs/conditionNode' },
    { $ref: '#/$defs/functionNode' },
    { $ref: '#/$defs/httpNode' },
    { $ref: '#/$defs/setNode' },
    { $ref: '#/$defs/gotoNode' },
    { $ref: '#/$defs/handoffNode' },
    { $ref: '#/$defs/endNode' },
  ],
};

const expression = { type: 'string', minLength: 1, maxLength: LIMITS.expression };

export const botDefinitionJsonSchema: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://bot-platform.dev/schemas/bot-definition.schema.json',
  title: 'Bot definition',
  description: 'A hosted bot: typed variables and journeys of nodes joined by edges (schema version 1).',
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'startJourney', 'variables', 'journeys'],
  properties: {
    schemaVersion: { const: 1 },
    startJourney: slug,
    variables: {
      type: 'array',
      maxItems: LIMITS.variables,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type'],
        properties: { name: variableName, type: { enum: ['string', 'number', 'boolean', 'object', 'array'] }, default: {} },
      },
    },
    journeys: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.journeys,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slug', 'start', 'nodes', 'edges'],
        properties: {
          slug,
          name: { type: 'string', maxLength: LIMITS.label },
          start: nodeId,
          nodes: { type: 'array', minItems: 1, maxItems: LIMITS.nodesPerJourney, items: { $ref: '#/$defs/node' } },
          edges: {
            type: 'array',
            maxItems: LIMITS.edgesPerJourney,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['from', 'to'],
              properties: { from: nodeId, to: nodeId, on: nodeId },
            },
          },
        },
      },
    },
    settings: {
      type: 'object',
      additionalProperties: false,
      properties: {
        functionTimeoutMs: { type: 'integer', minimum: 1, maximum: LIMITS.functionTimeoutMs },
        functionMemoryMb: { type: 'integer', minimum: 1, maximum: LIMITS.functionMemoryMb },
        apology: visible(LIMITS.text),
      },
    },
  },
  $defs: {
    button,
    node,
    answerCheck,
    messageNode,
    questionNode: nodeKind('question', ['text', 'answer', 'variable'], {
      text: visible(LIMITS.text),
      quickReplies,
      answer: { $ref: '#/$defs/answerCheck' },
      variable: variableName,
      retryPrompt: visible(LIMITS.text),
      maxRetries: { type: 'integer', minimum: 0, maximum: LIMITS.maxRetries },
    }),
    conditionNode: nodeKind('condition', ['branches'], {
      branches: {
        type: 'array',
        minItems: 1,
        maxItems: LIMITS.branches,
        items: { type: 'object', additionalProperties: false, required: ['id', 'when'], properties: { id: nodeId, when: expression } },
      },
    }),
    functionNode: nodeKind('function', ['code'], {
      code: { type: 'string', minLength: 1, maxLength: LIMITS.code },
      variable: variableName,
      timeoutMs: { type: 'integer', minimum: 1, maximum: LIMITS.functionTimeoutMs },
    }),
    httpNode: nodeKind('http', ['method', 'url'], {
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
      url: { type: 'string', minLength: 1, maxLength: LIMITS.url },
      headers: {
        type: 'object',
        maxProperties: LIMITS.headers,
        propertyNames: { pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,256}$" },
        additionalProperties: { type: 'string', maxLength: LIMITS.headerValue },
      },
      body: {},
      timeoutMs: { type: 'integer', minimum: 1, maximum: LIMITS.httpTimeoutMs },
      map: {
        type: 'array',
        maxItems: LIMITS.httpMap,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['variable', 'path'],
          properties: { variable: variableName, path: { type: 'string', pattern: '^(status|body(\\.[A-Za-z0-9_$-]{1,128}){0,16})$' } },
        },
      },
    }),
    setNode: nodeKind('set', ['assignments'], {
      assignments: {
        type: 'array',
        minItems: 1,
        maxItems: LIMITS.assignments,
        items: { type: 'object', additionalProperties: false, required: ['variable', 'value'], properties: { variable: variableName, value: expression } },
      },
    }),
    gotoNode: nodeKind('goto', ['journey'], { journey: slug }),
    handoffNode: nodeKind('handoff', [], { text: visible(LIMITS.text), reason: { type: 'string', maxLength: LIMITS.reason } }),
    endNode: nodeKind('end', [], { text: visible(LIMITS.text) }),
  },
};
