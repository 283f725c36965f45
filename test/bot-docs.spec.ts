import { readFileSync } from 'node:fs';
import { validateBotDefinition } from '@platform/bot-engine';
import type { BotNodeKind } from '@platform/contracts';
import { demoBotDefinition, sdkDocPayloadFunction } from '../tools/up/demo-bot.js';

const ALL_KINDS: BotNodeKind[] = ['message', 'question', 'condition', 'function', 'http', 'set', 'goto', 'handoff', 'end'];

/** docs/bots.md's complete example is the demo bot `npm run up` seeds, and both stay valid. */
describe('the example bot of docs/bots.md', () => {
  const doc = readFileSync('docs/bots.md', 'utf8');
  const example = JSON.parse(/<!-- example:start -->\n```json\n([\s\S]*?)```\n<!-- example:end -->/.exec(doc)![1]) as unknown;

  it('is the demo definition of npm run up, and the engine accepts it', () => {
    expect(example).toEqual(demoBotDefinition());
    const result = validateBotDefinition(example);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('uses every node kind, and reads the payload with the function node of docs/sdk.md as written there', () => {
    const nodes = demoBotDefinition().journeys.flatMap((j) => j.nodes);
    expect(new Set(nodes.map((n) => n.kind))).toEqual(new Set(ALL_KINDS));
    const parse = nodes.find((n) => n.kind === 'function' && n.variable === 'profile');
    expect(parse).toMatchObject({ code: sdkDocPayloadFunction() });
    expect(sdkDocPayloadFunction()).toContain("import { parseBotPayload } from '@bot-platform/sdk-core';");
  });
});
