import type { BotDefinition, DefinitionError } from '@platform/contracts';
import { edgeLabel, producibleLabels } from '@platform/contracts';

/**
 * The checks on how a definition hangs together: unique names, journeys and edges that name what exists, edge
 * labels the node can produce, one edge per label, and nodes reachable from their journey's start.
 */
export function graphErrors(definition: BotDefinition): DefinitionError[] {
  const errors: DefinitionError[] = [];
  const slugs = new Set<string>();
  definition.journeys.forEach((journey, index) => {
    if (slugs.has(journey.slug)) errors.push({ journey: journey.slug, field: `journeys[${index}].slug`, message: `the journey slug "${journey.slug}" is used twice` });
    slugs.add(journey.slug);
  });
  if (!slugs.has(definition.startJourney)) errors.push({ field: 'startJourney', message: `no journey has the slug "${definition.startJourney}"` });

  const names = new Set<string>();
  definition.variables.forEach((variable, index) => {
    if (names.has(variable.name)) errors.push({ field: `variables[${index}].name`, message: `the variable "${variable.name}" is declared twice` });
    names.add(variable.name);
  });

  for (const journey of definition.journeys) {
    const at = (node: string | undefined, field: string, message: string) => errors.push({ journey: journey.slug, ...(node ? { node } : {}), field, message });
    const nodes = new Map<string, (typeof journey.nodes)[number]>();
    journey.nodes.forEach((node) => {
      if (nodes.has(node.id)) at(node.id, 'id', `the node id "${node.id}" is used twice in this journey`);
      else nodes.set(node.id, node);
      if (node.kind === 'condition') {
        const ids = new Set<string>();
        node.branches.forEach((branch, index) => {
          if (branch.id === 'else') at(node.id, `branches[${index}].id`, '"else" is the label taken when no branch is true; name the branch otherwise');
          else if (ids.has(branch.id)) at(node.id, `branches[${index}].id`, `the branch id "${branch.id}" is used twice`);
          ids.add(branch.id);
        });
      }
      if (node.kind === 'goto' && !definition.journeys.some((other) => other.slug === node.journey)) {
        at(node.id, 'journey', `goto names the journey "${node.journey}", which does not exist`);
      }
    });
    if (!nodes.has(journey.start)) at(undefined, 'start', `the start node "${journey.start}" is not a node of this journey`);

    const used = new Set<string>();
    const successors = new Map<string, string[]>();
    journey.edges.forEach((edge, index) => {
      const from = nodes.get(edge.from);
      const label = edgeLabel(edge);
      if (!from) at(undefined, `edges[${index}].from`, `the edge leaves "${edge.from}", which is not a node of this journey`);
      if (!nodes.has(edge.to)) at(from?.id, `edges[${index}].to`, `the edge leads to "${edge.to}", which is not a node of this journey`);
      if (!from) return;
      const labels = producibleLabels(from);
      if (!labels.includes(label)) {
        const can = labels.length ? `it leaves by ${labels.map((l) => `"${l}"`).join(', ')}` : 'it has no outgoing edges';
        at(from.id, `edges[${index}].on`, `a ${from.kind} node never produces "${label}": ${can}`);
      }
      const key = `${edge.from}\n${label}`;
      if (used.has(key)) at(from.id, `edges[${index}].on`, `the node has two "${label}" edges`);
      used.add(key);
      if (nodes.has(edge.to)) successors.set(edge.from, [...(successors.get(edge.from) ?? []), edge.to]);
    });

    if (nodes.has(journey.start)) {
      const reached = new Set([journey.start]);
      const queue = [journey.start];
      while (queue.length) {
        for (const next of successors.get(queue.shift()!) ?? []) {
          if (reached.has(next)) continue;
          reached.add(next);
          queue.push(next);
        }
      }
      for (const id of nodes.keys()) if (!reached.has(id)) at(id, 'id', `the node "${id}" cannot be reached from the journey's start "${journey.start}"`);
    }
  }
  return errors;
}
