import type { BotDefinition, DefinitionError } from '@platform/contracts';
import { contentErrors } from './content-checks.js';
import { definitionWarnings } from './definition-warnings.js';
import { graphErrors } from './graph-checks.js';
import { loopErrors } from './loop-checks.js';
import { schemaErrors } from './schema-errors.js';

/** `warnings` never make a definition invalid (definition-warnings.ts); they are empty when the shape is refused. */
export type DefinitionValidation = { ok: true; definition: BotDefinition; warnings: DefinitionError[] } | { ok: false; errors: DefinitionError[]; warnings: DefinitionError[] };

/**
 * Validates a definition document: first its shape against the JSON Schema, then (only when the shape holds,
 * since the later checks read the document as a BotDefinition) every semantic check. All errors of a stage
 * are reported, each naming the journey slug, node id and field where it can; warnings, shaped as errors,
 * point at what runs but probably not as meant, and never make it invalid.
 */
export function validateBotDefinition(doc: unknown): DefinitionValidation {
  const shape = schemaErrors(doc);
  if (shape.length) return { ok: false, errors: shape, warnings: [] };
  const definition = doc as BotDefinition;
  const errors = [...graphErrors(definition), ...contentErrors(definition), ...loopErrors(definition)];
  const warnings = definitionWarnings(definition);
  return errors.length ? { ok: false, errors, warnings } : { ok: true, definition, warnings };
}
