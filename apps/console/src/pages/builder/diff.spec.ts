import type { Definition } from './definition.js';
import { diffDefinitions } from './diff.js';

const v1: Definition = {
  schemaVersion: 1,
  startJourney: 'main',
  variables: [{ name: 'name', type: 'string' }],
  journeys: [
    {
      slug: 'main',
      start: 'hello',
      nodes: [
        { id: 'hello', kind: 'message', text: 'Hi' },
        { id: 'bye', kind: 'end' },
      ],
      edges: [{ from: 'hello', to: 'bye' }],
    },
  ],
};

describe('builder diff between versions', () => {
  it('is empty for the same definition', () => {
    expect(diffDefinitions(v1, structuredClone(v1))).toEqual([]);
  });

  it('names every change: variables, journeys, nodes (with their changed fields), edges, start and settings', () => {
    const v2: Definition = {
      schemaVersion: 1,
      startJourney: 'shop',
      variables: [
        { name: 'name', type: 'string', default: 'you' },
        { name: 'age', type: 'number' },
      ],
      journeys: [
        {
          slug: 'main',
          start: 'ask',
          nodes: [
            { id: 'ask', kind: 'question', text: 'Age?', answer: { type: 'number' }, variable: 'age' },
            { id: 'hello', kind: 'message', text: 'Hello', label: 'Greeting' },
          ],
          edges: [{ from: 'ask', to: 'hello', on: 'next' }],
        },
        { slug: 'shop', start: 'x', nodes: [{ id: 'x', kind: 'end' }], edges: [] },
      ],
      settings: { apology: 'Oops' },
    };
    expect(diffDefinitions(v1, v2)).toEqual([
      'starts with journey shop (was main)',
      'variable name changed',
      'variable age (number) added',
      'journey main: starts at ask (was hello)',
      'journey main: node ask (question) added',
      'journey main: node hello changed: label, text',
      'journey main: node bye (end) removed',
      'journey main: edge ask → hello (next) added',
      'journey main: edge hello → bye (next) removed',
      'journey shop added (1 node)',
      'settings changed',
    ]);
    expect(diffDefinitions(v2, v1)).toContain('journey shop removed');
    expect(diffDefinitions(v2, v1)).toContain('variable age removed');
  });
});
