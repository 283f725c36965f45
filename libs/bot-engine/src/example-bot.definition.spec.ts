import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateBotDefinition } from './definition/validate-bot-definition.js';
import { exampleBotDefinition, SDK_FUNCTION_NODE_CODE } from './example-bot.definition.js';
import { runTurn } from './engine/run-turn.js';
import { fakePorts, returned } from './testing/definition-builders.js';

describe('the example bot', () => {
  it('is valid and uses every node kind', () => {
    expect(validateBotDefinition(exampleBotDefinition).ok).toBe(true);
    const kinds = new Set(exampleBotDefinition.journeys.flatMap((journey) => journey.nodes.map((node) => node.kind)));
    expect([...kinds].sort()).toEqual(['condition', 'end', 'function', 'goto', 'handoff', 'http', 'message', 'question', 'set']);
  });

  it('runs the docs/sdk.md function node exactly as written, into the object variable profile', () => {
    const docs = readFileSync(join(process.cwd(), 'docs', 'sdk.md'), 'utf8');
    const block = /```js\n(import \{ parseBotPayload \}[\s\S]*?)```/.exec(docs);
    expect(block?.[1]).toBe(SDK_FUNCTION_NODE_CODE);
    const node = exampleBotDefinition.journeys[0].nodes.find((n) => n.kind === 'function');
    expect(node).toMatchObject({ code: SDK_FUNCTION_NODE_CODE, variable: 'profile' });
    expect(exampleBotDefinition.variables).toContainEqual({ name: 'profile', type: 'object' });
  });

  it('greets by the payload name, re-asks a bad age, offers the menu, and hands off to a person', async () => {
    const ports = fakePorts({ functions: (request) => returned(JSON.parse(request.payload!)) });
    const definition = exampleBotDefinition;
    const texts = (outputs: Awaited<ReturnType<typeof runTurn>>['outputs']) => outputs.map((o) => (o.kind === 'reply' && 'text' in o.reply ? o.reply.text : o.kind));
    const first = await runTurn({ definition, version: 1, state: null, input: { kind: 'start', payload: '{"userName":"Ana"}' }, ports: ports.ports });
    expect(texts(first.outputs)).toEqual(['Hi Ana! Welcome.', 'How old are you?']);
    const bad = await runTurn({ definition, version: 1, state: first.state, input: { kind: 'message', text: 'old' }, ports: ports.ports });
    expect(texts(bad.outputs)).toEqual(['Please answer with a number, like 30.', 'How old are you?']);
    const menu = await runTurn({ definition, version: 1, state: bad.state, input: { kind: 'message', text: '30' }, ports: ports.ports });
    expect(texts(menu.outputs)).toEqual(['What would you like, Ana?']);
    const agent = await runTurn({ definition, version: 1, state: menu.state, input: { kind: 'message', text: 'Talk to a person', payload: 'agent' }, ports: ports.ports });
    expect(texts(agent.outputs)).toEqual(['Connecting you to a person…', 'handoff']);
    const back = await runTurn({ definition, version: 1, state: agent.state, input: { kind: 'handback' }, ports: ports.ports });
    expect(texts(back.outputs)).toEqual(['Thanks for chatting. Bye!']);
    expect(back.state).toBeNull();
  });

  it('the shop journey: a carousel whose buttons answer the next question, a size, an image', async () => {
    const ports = fakePorts();
    const definition = exampleBotDefinition;
    const shop = await runTurn({ definition, version: 1, state: null, input: { kind: 'message', text: 'Shop', payload: 'journey:shop' }, ports: ports.ports });
    expect(shop.outputs[0]).toMatchObject({ kind: 'reply', reply: { cards: [{ title: 'T-shirt' }, { title: 'Hoodie' }] } });
    const item = await runTurn({ definition, version: 1, state: shop.state, input: { kind: 'message', text: 'Buy the hoodie', payload: 'hoodie' }, ports: ports.ports });
    const size = await runTurn({ definition, version: 1, state: item.state, input: { kind: 'message', text: 'm' }, ports: ports.ports });
    expect(size.outputs).toEqual([
      { kind: 'reply', reply: { image: { url: 'https://shop.example.com/img/size-M.png', caption: 'Your hoodie in size M is on its way!' } } },
      { kind: 'reply', reply: { text: 'Thank you for your order.' } },
    ]);
  });
});
