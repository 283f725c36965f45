// @platform/bot-engine: hosted bots' definitions (schema, validation) and their execution (one turn at a time).
// Pure: no I/O of its own; the sandbox, outside calls and secrets come in through TurnPorts.
export { botDefinitionJsonSchema } from './definition/bot-definition.schema.js';
export { validateBotDefinition, type DefinitionValidation } from './definition/validate-bot-definition.js';
export { runTurn } from './engine/run-turn.js';
export { journeyForPayload } from './engine/journey-for-payload.js';
export type { HttpCaller, HttpOutcome, HttpRequest, TurnPorts, TurnRequest } from './engine/turn-ports.js';
export { exampleBotDefinition } from './example-bot.definition.js';
