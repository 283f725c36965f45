import type { Journey } from './definition.js';
import { addNode, connect, disconnect, freshId, removeNode, targetOf, toFlow, updateNode } from './graph.js';

const journey: Journey = {
  slug: 'main',
  start: 'ask',
  nodes: [
    { id: 'ask', kind: 'question', text: 'Age?', answer: { type: 'number' }, variable: 'age' },
    { id: 'check', kind: 'condition', branches: [{ id: 'adult', when: 'variables.age >= 18' }] },
    { id: 'yes', kind: 'message', text: 'Welcome' },
    { id: 'bye', kind: 'end' },
  ],
  edges: [
    { from: 'ask', to: 'check' },
    { from: 'check', to: 'yes', on: 'adult' },
    { from: 'check', to: 'bye', on: 'else' },
    { from: 'yes', to: 'bye' },
  ],
};

describe('builder graph <-> definition', () => {
  it('draws each node with its exits, the start, its errors and its position; each edge from its exit handle', () => {
    const { nodes, edges } = toFlow(journey, { ask: { x: 10, y: 20 } }, [
      { journey: 'main', node: 'check', field: 'branches[0].when', message: 'unknown variable' },
      { journey: 'other', node: 'check', message: 'not this journey' },
      { journey: 'main', message: 'not a node' },
    ]);
    expect(nodes.map((n) => [n.id, n.data.exits, n.data.start])).toEqual([
      ['ask', ['next', 'invalid'], true],
      ['check', ['adult', 'else'], false],
      ['yes', ['next'], false],
      ['bye', [], false],
    ]);
    expect(nodes[0]!.position).toEqual({ x: 10, y: 20 });
    // Nodes without a place go below the lowest one, one under the other.
    expect(nodes.slice(1).map((n) => n.position.y)).toEqual([140, 260, 380]);
    expect(nodes[1]!.data.errors).toEqual(['branches[0].when: unknown variable']);
    expect(nodes[0]!.data.errors).toEqual([]);
    expect(edges).toContainEqual({ id: 'check:adult', source: 'check', target: 'yes', sourceHandle: 'adult', label: 'adult' });
    expect(edges).toContainEqual({ id: 'ask:next', source: 'ask', target: 'check', sourceHandle: 'next', label: 'next' });
  });

  it("draws each node's warnings apart from its errors", () => {
    const { nodes } = toFlow(
      journey,
      {},
      [{ journey: 'main', node: 'ask', field: 'variable', message: 'unknown variable' }],
      [
        { journey: 'main', node: 'ask', field: 'maxRetries', message: 'no "invalid" edge' },
        { journey: 'other', node: 'ask', field: 'maxRetries', message: 'not this journey' },
      ],
    );
    expect(nodes[0]!.data.errors).toEqual(['variable: unknown variable']);
    expect(nodes[0]!.data.warnings).toEqual(['maxRetries: no "invalid" edge']);
    expect(nodes.slice(1).map((n) => n.data.warnings)).toEqual([[], [], []]);
  });

  it('connects an exit once (a new target replaces the old), writes `next` without `on`, and disconnects', () => {
    let j = connect(journey, 'check', 'else', 'yes');
    expect(j.edges.filter((e) => e.from === 'check')).toEqual([
      { from: 'check', to: 'yes', on: 'adult' },
      { from: 'check', to: 'yes', on: 'else' },
    ]);
    j = connect(j, 'ask', 'next', 'bye');
    expect(j.edges).toContainEqual({ from: 'ask', to: 'bye' });
    expect(targetOf(j, 'ask', 'next')).toBe('bye');
    j = disconnect(j, 'ask', 'next');
    expect(targetOf(j, 'ask', 'next')).toBeUndefined();
    expect(journey.edges).toHaveLength(4); // the original is untouched
  });

  it('adds nodes with fresh ids (the first of an empty journey is its start) and removes one with its edges', () => {
    expect(freshId(journey, 'message')).toBe('message-1');
    const { journey: added, id } = addNode(journey, 'message', 'main');
    expect(id).toBe('message-1');
    expect(added.nodes.at(-1)).toEqual({ id: 'message-1', kind: 'message', text: 'Hello!' });
    expect(addNode(added, 'message', 'main').id).toBe('message-2');
    const empty = addNode({ slug: 'x', start: '', nodes: [], edges: [] }, 'end', 'main').journey;
    expect(empty.start).toBe('end-1');
    // An id chosen beforehand (the builder names the node before its update runs) is kept; a taken one adds nothing.
    expect(addNode(journey, 'message', 'main', 'message-7').journey.nodes.at(-1)?.id).toBe('message-7');
    expect(addNode(added, 'end', 'main', 'message-1').journey).toBe(added);

    const removed = removeNode(journey, 'ask');
    expect(removed.start).toBe('check');
    expect(removed.edges.some((e) => e.from === 'ask' || e.to === 'ask')).toBe(false);
    expect(removeNode(journey, 'yes').edges).toEqual([
      { from: 'ask', to: 'check' },
      { from: 'check', to: 'bye', on: 'else' },
    ]);
  });

  it('renames a node through its edges and the start, and drops edges of exits it no longer has', () => {
    const renamed = updateNode(journey, 'ask', { ...journey.nodes[0]!, id: 'age' });
    expect(renamed.start).toBe('age');
    expect(renamed.edges[0]).toEqual({ from: 'age', to: 'check' });
    const branchGone = updateNode(journey, 'check', { id: 'check', kind: 'condition', branches: [{ id: 'minor', when: 'variables.age < 18' }] });
    expect(branchGone.edges.filter((e) => e.from === 'check')).toEqual([{ from: 'check', to: 'bye', on: 'else' }]);
  });
});
