import type { BotDefinition, DefinitionError } from '@platform/contracts';
import { edgeLabel } from '@platform/contracts';
import { DEFAULT_MAX_RETRIES } from './definition-limits.js';

/**
 * What the validator points out without refusing: a definition that runs, but probably not as its author
 * means. Warnings never stop a save or a publish: definitions published before a warning existed must stay
 * publishable, and what they point at is the bot's behaviour, not a broken definition.
 */
export function definitionWarnings(definition: BotDefinition): DefinitionError[] {
  const warnings: DefinitionError[] = [];
  for (const journey of definition.journeys) {
    const invalidEdges = new Set(journey.edges.filter((edge) => edgeLabel(edge) === 'invalid').map((edge) => edge.from));
    for (const node of journey.nodes) {
      if (node.kind !== 'question' || invalidEdges.has(node.id)) continue;
      const retries = node.maxRetries ?? DEFAULT_MAX_RETRIES;
      warnings.push({
        journey: journey.slug,
        node: node.id,
        field: 'maxRetries',
        message: `no "invalid" edge: after ${retries === 1 ? '1 retry' : `${retries} retries`} without a valid answer the user gets the apology and the journey ends, as if the bot had failed; add an "invalid" edge to go on`,
      });
    }
  }
  return warnings;
}
