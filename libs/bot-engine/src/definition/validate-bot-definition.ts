import type { BotDefinition, DefinitionError } from '@platform/contracts';
import { contentErrors } from './content-checks.js';
import { graphErrors } from './graph-checks.js';
import { loopErrors } from './loop-checks.js';
import { schemaErrors } from './schema-errors.js';

export type DefinitionValidation = { ok: true; definition: BotDefinition } | { ok: false; errors: DefinitionError[] };

/**
 * Validates a definition document: first its shape against the JSON Schema, then (only when the shape holds,
 * since the later checks read the document as a BotDefinition) every semantic check. All errors of a stage
 * are reported, each naming the journey slug, node id and field where it can.
 */
export function validateBotDefinition(doc: unknown): DefinitionValidation {
  const shape = schemaErrors(doc);
  if (shape.length) return { ok: false, errors: shape };
  const definition = doc as BotDefinition;
  const errors = [...graphErrors(definition), ...contentErrors(definition), ...loopErrors(definition)];
  return errors.length ? { ok: false, errors } : { ok: true, definition };
}
