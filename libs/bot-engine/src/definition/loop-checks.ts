import type { BotDefinition, DefinitionError } from '@platform/contracts';

/**
 * Loops that never wait for the user: a cycle through edges and goto jumps (across journeys) that passes no
 * question or handoff node would run until the step limit on every turn. Found as the strongly connected
 * components of the graph without its waiting nodes (Tarjan, iterative: a journey may have 300 nodes in a row).
 */
export function loopErrors(definition: BotDefinition): DefinitionError[] {
  const key = (journey: string, node: string) => `${journey}\n${node}`;
  const successors = new Map<string, string[]>();
  const order: Array<{ journey: string; node: string }> = [];
  const starts = new Map(definition.journeys.map((journey) => [journey.slug, journey.start]));
  for (const journey of definition.journeys) {
    const waiting = new Set(journey.nodes.filter((node) => node.kind === 'question' || node.kind === 'handoff').map((node) => node.id));
    const ids = new Set(journey.nodes.map((node) => node.id));
    for (const node of journey.nodes) {
      if (waiting.has(node.id) || successors.has(key(journey.slug, node.id))) continue;
      order.push({ journey: journey.slug, node: node.id });
      const next: string[] = [];
      if (node.kind === 'goto' && starts.has(node.journey)) next.push(key(node.journey, starts.get(node.journey)!));
      successors.set(key(journey.slug, node.id), next);
    }
    for (const edge of journey.edges) {
      const from = successors.get(key(journey.slug, edge.from));
      if (from && ids.has(edge.to) && !waiting.has(edge.to)) from.push(key(journey.slug, edge.to));
    }
  }
  // A goto into a journey whose start waits leads to no successor here.
  for (const list of successors.values()) for (let i = list.length - 1; i >= 0; i--) if (!successors.has(list[i])) list.splice(i, 1);

  const errors: DefinitionError[] = [];
  for (const component of stronglyConnected(
    order.map((n) => key(n.journey, n.node)),
    successors,
  )) {
    const single = component.length === 1;
    if (single && !(successors.get(component[0]) ?? []).includes(component[0])) continue;
    const cycle = component.map((id) => id.replace('\n', '/'));
    const [journey, node] = component[0].split('\n');
    errors.push({
      journey,
      node,
      message: `this loop never waits for the user (no question or handoff on it): ${cycle.slice(0, 6).join(' → ')}${cycle.length > 6 ? ' → …' : ''}`,
    });
  }
  return errors;
}

/** Tarjan's algorithm without recursion; components come out with their nodes in discovery order. */
function stronglyConnected(nodes: string[], successors: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = successors.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.reverse());
      }
    }
  }
  return components;
}
