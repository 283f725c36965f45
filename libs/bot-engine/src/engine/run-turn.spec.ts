import type { BotDefinition, BotNode, BotRunState, BotTurnInput, BotTurnResult } from '@platform/contracts';
import { validateBotDefinition } from '../definition/validate-bot-definition.js';
import { bot, chain, fakePorts, journey, returned, type FakePorts } from '../testing/definition-builders.js';
import { runTurn } from './run-turn.js';

const start: BotTurnInput = { kind: 'start', payload: null };
const say = (text: string, payload?: string): BotTurnInput => ({ kind: 'message', text, ...(payload !== undefined ? { payload } : {}) });
const texts = (result: BotTurnResult) => result.outputs.map((output) => (output.kind === 'reply' && 'text' in output.reply ? output.reply.text : output.kind));

/** Validates the definition first (a spec journey that the validator refuses would test nothing real). */
function valid(definition: BotDefinition): BotDefinition {
  const validation = validateBotDefinition(definition);
  if (!validation.ok) throw new Error(`invalid spec definition: ${JSON.stringify(validation.errors)}`);
  return definition;
}

async function turn(definition: BotDefinition, state: BotRunState | null, input: BotTurnInput, ports: FakePorts = fakePorts(), extra: { version?: number; maxSteps?: number } = {}) {
  return runTurn({ definition, version: extra.version ?? 1, state, input, ports: ports.ports, ...(extra.maxSteps ? { maxSteps: extra.maxSteps } : {}) });
}

const msg = (id: string, text: string): BotNode => ({ id, kind: 'message', text });
const ask = (id: string, variable: string, answer: Extract<BotNode, { kind: 'question' }>['answer'], extra: Partial<Extract<BotNode, { kind: 'question' }>> = {}): BotNode => ({
  id,
  kind: 'question',
  text: `${id}?`,
  answer,
  variable,
  ...extra,
});

describe('runTurn: messages and the end', () => {
  const definition = valid(bot(journey('main', [msg('hi', 'Hello'), msg('more', 'Still here'), { id: 'bye', kind: 'end', text: 'Bye' }], chain('hi', 'more', 'bye'))));

  it('runs a journey to its end: replies in order, one step per node, state null', async () => {
    const result = await turn(definition, null, start);
    expect(texts(result)).toEqual(['Hello', 'Still here', 'Bye']);
    expect(result.steps.map((step) => [step.node, step.kind, step.outcome])).toEqual([
      ['hi', 'message', 'ok'],
      ['more', 'message', 'ok'],
      ['bye', 'end', 'ok'],
    ]);
    expect(result.state).toBeNull();
    for (const step of result.steps) {
      expect(step.journey).toBe('main');
      expect(step.startedAt).toBeInstanceOf(Date);
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('ends the journey when a node has no edge to follow', async () => {
    const result = await turn(valid(bot(journey('main', [msg('only', 'One')]))), null, start);
    expect(texts(result)).toEqual(['One']);
    expect(result.state).toBeNull();
  });

  it('renders message quick replies with the title as payload when none is given, images and cards', async () => {
    const nodes: BotNode[] = [
      { id: 'q', kind: 'message', text: 'Pick', quickReplies: [{ title: 'Yes' }, { title: 'No', payload: 'n' }] },
      { id: 'img', kind: 'message', image: { url: 'https://cdn.example.com/{{variables.file}}', caption: 'A {{variables.file}}' } },
      { id: 'cards', kind: 'message', cards: [{ title: 'Card {{variables.file}}', imageUrl: 'https://cdn.example.com/c.png', buttons: [{ title: 'Go', payload: 'journey:main' }] }] },
    ];
    const result = await turn(valid(bot(journey('main', nodes, chain('q', 'img', 'cards')), [{ name: 'file', type: 'string', default: 'a b/c.png' }])), null, start);
    expect(result.outputs).toEqual([
      {
        kind: 'reply',
        reply: {
          text: 'Pick',
          quickReplies: [
            { title: 'Yes', payload: 'Yes' },
            { title: 'No', payload: 'n' },
          ],
        },
      },
      { kind: 'reply', reply: { image: { url: 'https://cdn.example.com/a%20b%2Fc.png', caption: 'A a b/c.png' } } },
      { kind: 'reply', reply: { cards: [{ title: 'Card a b/c.png', imageUrl: 'https://cdn.example.com/c.png', buttons: [{ title: 'Go', payload: 'journey:main' }] }] } },
    ]);
  });
});

describe('runTurn: entry', () => {
  const definition = valid(
    bot(
      [
        journey('main', [ask('name', 'name', { type: 'text' }), msg('hi', 'Hi {{variables.name}}')], chain('name', 'hi')),
        journey('promo', [msg('promo', 'Promo for {{variables.name}}'), ask('code', 'name', { type: 'text' })], chain('promo', 'code')),
      ],
      [{ name: 'name', type: 'string', default: 'friend' }],
    ),
  );

  it('a start without a slug starts the start journey, with variables at their defaults and the payload kept', async () => {
    const result = await turn(definition, null, { kind: 'start', payload: '{"userName":"Ana"}' }, fakePorts(), { version: 7 });
    expect(texts(result)).toEqual(['name?']);
    expect(result.state).toEqual({ version: 7, journey: 'main', node: 'name', status: 'waiting', variables: { name: 'friend' }, retries: 0, payload: '{"userName":"Ana"}' });
  });

  it('a start with a known slug starts that journey afresh', async () => {
    const waiting = (await turn(definition, null, start)).state!;
    const result = await turn(definition, { ...waiting, variables: { name: 'Old' } }, { kind: 'start', payload: '{}', journeySlug: 'promo' });
    expect(texts(result)).toEqual(['Promo for friend', 'code?']);
    expect(result.state).toMatchObject({ journey: 'promo', node: 'code', variables: { name: 'friend' }, payload: '{}' });
  });

  it('a start with an unknown slug starts the start journey and records the problem as a step', async () => {
    const result = await turn(definition, null, { kind: 'start', payload: null, journeySlug: 'nope' });
    expect(result.steps[0]).toMatchObject({ journey: 'main', node: 'name', outcome: 'error', error: expect.stringContaining('"nope" does not exist') });
    expect(result.state).toMatchObject({ journey: 'main', node: 'name', status: 'waiting' });
  });

  it('a start without a slug while a journey waits changes nothing (a reopened chat page resumes)', async () => {
    const waiting = (await turn(definition, null, start)).state!;
    const result = await turn(definition, waiting, { kind: 'start', payload: '{"other":1}' });
    expect(result).toEqual({ state: waiting, outputs: [], steps: [], logs: [] });
  });

  it('a message with no journey running starts the start journey and is not an answer to its first question', async () => {
    const result = await turn(definition, null, say('Bob'));
    expect(texts(result)).toEqual(['name?']);
    expect(result.state).toMatchObject({ node: 'name', variables: { name: 'friend' }, payload: null });
  });

  it("a message with no journey running starts the start journey with the session's payload, so a restart still knows the user", async () => {
    const ended = await runTurn({ definition, version: 1, state: null, input: say('again'), ports: fakePorts().ports, sessionPayload: '{"userName":"Ana"}' });
    expect(ended.state).toMatchObject({ journey: 'main', node: 'name', payload: '{"userName":"Ana"}' });
    const named = await runTurn({ definition, version: 1, state: null, input: say('Promo', 'journey:promo'), ports: fakePorts().ports, sessionPayload: '{"userName":"Ana"}' });
    expect(named.state).toMatchObject({ journey: 'promo', payload: '{"userName":"Ana"}' });
  });

  it('a message whose payload names a journey starts it, with or without a journey running', async () => {
    const fresh = await turn(definition, null, say('Promo', 'journey:promo'));
    expect(texts(fresh)).toEqual(['Promo for friend', 'code?']);
    const waiting = (await turn(definition, null, start)).state!;
    const restarted = await turn(definition, waiting, say('Promo', 'journey:promo'), fakePorts(), { version: 2 });
    expect(restarted.state).toMatchObject({ journey: 'promo', node: 'code', version: 2 });
  });

  it('a payload naming an unknown journey is an ordinary answer', async () => {
    const waiting = (await turn(definition, null, start)).state!;
    const result = await turn(definition, waiting, say('journey:nope', 'journey:nope'));
    expect(texts(result)).toEqual(['Hi journey:nope']);
  });

  it('keeps the version a journey started on until it ends; a new start takes the given one', async () => {
    const waiting = (await turn(definition, null, start, fakePorts(), { version: 3 })).state!;
    const answered = await turn(definition, waiting, say('Ann'), fakePorts(), { version: 4 });
    expect(answered.state).toBeNull();
    const promo = (await turn(definition, null, { kind: 'start', payload: null, journeySlug: 'promo' }, fakePorts(), { version: 3 })).state!;
    const still = await turn(definition, { ...promo }, say('x'), fakePorts(), { version: 5 });
    expect(still.state).toBeNull();
    const waitingV3 = (await turn(definition, null, start, fakePorts(), { version: 3 })).state!;
    const kept = await turn(definition, waitingV3, { kind: 'start', payload: null }, fakePorts(), { version: 9 });
    expect(kept.state?.version).toBe(3);
  });
});

describe('runTurn: questions', () => {
  const definition = (answer: Extract<BotNode, { kind: 'question' }>['answer'], type: 'string' | 'number' = 'string', extra = {}) =>
    valid(
      bot(
        journey(
          'main',
          [ask('q', 'v', answer, extra), msg('ok', 'got {{variables.v}}'), msg('bad', 'gave up')],
          [['q', 'ok'], ...(extra && 'invalidEdge' in extra ? [] : []), ['q', 'bad', 'invalid']],
        ),
        [{ name: 'v', type }],
      ),
    );

  async function answer(def: BotDefinition, ...answers: Array<[string, string?]>) {
    let state = (await turn(def, null, start)).state;
    let result: BotTurnResult | undefined;
    for (const [text, payload] of answers) {
      result = await turn(def, state, say(text, payload));
      state = result.state;
    }
    return result!;
  }

  it.each([
    [{ type: 'text' as const }, '  hello  ', 'got hello'],
    [{ type: 'number' as const, min: 1, max: 10 }, ' 7 ', 'got 7'],
    [{ type: 'email' as const }, 'ana@example.com', 'got ana@example.com'],
    [{ type: 'phone' as const }, '+49 170-123 4567', 'got +491701234567'],
    [{ type: 'pattern' as const, pattern: '^[A-Z]{2}\\d{3}$' }, 'AB123', 'got AB123'],
    [{ type: 'pattern' as const, pattern: '^yes$', flags: 'i' }, 'YES', 'got YES'],
  ])('accepts a valid %j answer and follows next', async (check, given, expected) => {
    const result = await answer(definition(check, check.type === 'number' ? 'number' : 'string'), [given]);
    expect(texts(result)).toEqual([expected]);
    expect(result.steps[0]).toMatchObject({ node: 'q', kind: 'question', outcome: 'ok' });
  });

  it('stores number answers as numbers', async () => {
    const def = valid(
      bot(
        journey(
          'main',
          [ask('q', 'n', { type: 'number' }), { id: 's', kind: 'set', assignments: [{ variable: 'n', value: 'variables.n * 2' }] }, ask('w', 's', { type: 'text' })],
          chain('q', 's', 'w'),
        ),
        [
          { name: 'n', type: 'number' },
          { name: 's', type: 'string' },
        ],
      ),
    );
    const result = await answer(def, ['21']);
    expect(result.state?.variables.n).toBe(42);
  });

  it.each([
    [{ type: 'text' as const, minLength: 3 }, 'ab'],
    [{ type: 'text' as const, maxLength: 3 }, 'abcd'],
    [{ type: 'text' as const }, '   '],
    [{ type: 'number' as const }, 'seven'],
    [{ type: 'number' as const }, ''],
    [{ type: 'number' as const, min: 1 }, '0'],
    [{ type: 'number' as const, max: 10 }, '11'],
    [{ type: 'email' as const }, 'ana@example'],
    [{ type: 'email' as const }, 'not an email'],
    [{ type: 'phone' as const }, '12345'],
    [{ type: 'phone' as const }, '+1 (555) 123-4567'],
    [{ type: 'phone' as const }, '1234567890123456'],
    [{ type: 'pattern' as const, pattern: '^\\d+$' }, '12a'],
    [{ type: 'text' as const }, 'x'.repeat(4097)],
  ])('re-asks a bad %j answer with the retry prompt', async (check, given) => {
    const result = await answer(definition(check, check.type === 'number' ? 'number' : 'string'), [given]);
    expect(texts(result)).toEqual(["Sorry, I didn't get that.", 'q?']);
    expect(result.state).toMatchObject({ node: 'q', status: 'waiting', retries: 1 });
    expect(result.steps[0]).toMatchObject({ node: 'q', outcome: 'waiting', error: expect.stringMatching(/^the answer/) });
  });

  it('follows the invalid edge when the retries are used up', async () => {
    const def = definition({ type: 'number' }, 'number', { maxRetries: 1, retryPrompt: 'A number please' });
    const first = await answer(def, ['x']);
    expect(texts(first)).toEqual(['A number please', 'q?']);
    const result = await answer(def, ['x'], ['y']);
    expect(texts(result)).toEqual(['gave up']);
    expect(result.steps[0]).toMatchObject({ outcome: 'error', error: expect.stringContaining('retries used up') });
    expect(result.state).toBeNull();
  });

  it('apologises and ends when the retries are used up and there is no invalid edge', async () => {
    const def = valid(bot(journey('main', [ask('q', 'v', { type: 'number' }, { maxRetries: 0 })]), [{ name: 'v', type: 'number' }], { settings: { apology: 'Oops' } }));
    const result = await answer(def, ['x']);
    expect(texts(result)).toEqual(['Oops']);
    expect(result.state).toBeNull();
  });

  it('a valid answer after a bad one resets the retries', async () => {
    const result = await answer(definition({ type: 'number' }, 'number'), ['x'], ['5']);
    expect(texts(result)).toEqual(['got 5']);
  });

  describe('choices', () => {
    const choices = [
      { title: 'Small', payload: 'S' },
      { title: 'Large', payload: 'L' },
    ];

    it('shows the choices as quick replies', async () => {
      const result = await turn(definition({ type: 'choice', choices }), null, start);
      expect(result.outputs[0]).toEqual({
        kind: 'reply',
        reply: {
          text: 'q?',
          quickReplies: [
            { title: 'Small', payload: 'S' },
            { title: 'Large', payload: 'L' },
          ],
        },
      });
    });

    it.each([
      ['a tapped payload', 'Small', 'L', 'got L'],
      ['a typed title in any case', 'large', undefined, 'got L'],
      ['a typed payload', 's', undefined, 'got S'],
    ])('accepts %s and stores the payload', async (_what, text, payload, expected) => {
      expect(texts(await answer(definition({ type: 'choice', choices }), [text, payload]))).toEqual([expected]);
    });

    it('refuses what is not a choice', async () => {
      expect(texts(await answer(definition({ type: 'choice', choices }), ['medium']))[0]).toBe("Sorry, I didn't get that.");
    });

    it('lists more than 3 choices in the text and accepts their numbers', async () => {
      const many = ['Red', 'Green', 'Blue', 'Black'].map((title) => ({ title }));
      const def = definition({ type: 'choice', choices: many });
      const asked = await turn(def, null, start);
      expect(asked.outputs[0]).toEqual({ kind: 'reply', reply: { text: 'q?\n\n1. Red\n2. Green\n3. Blue\n4. Black' } });
      expect(texts(await answer(def, ['4']))).toEqual(['got Black']);
      expect(texts(await answer(def, ['green']))).toEqual(['got Green']);
    });
  });
});

describe('runTurn: condition and set', () => {
  const definition = valid(
    bot(
      journey(
        'main',
        [
          ask('age', 'age', { type: 'number' }),
          {
            id: 'check',
            kind: 'condition',
            branches: [
              { id: 'kid', when: 'variables.age < 13' },
              { id: 'teen', when: 'variables.age < 18' },
            ],
          },
          msg('kid', 'kid'),
          msg('teen', 'teen'),
          {
            id: 'adult',
            kind: 'set',
            assignments: [
              { variable: 'label', value: '"adult of " + variables.age' },
              { variable: 'shout', value: 'upper(variables.label)' },
            ],
          },
          msg('say', '{{variables.shout}}'),
        ],
        [
          ['age', 'check'],
          ['check', 'kid', 'kid'],
          ['check', 'teen', 'teen'],
          ['check', 'adult', 'else'],
          ['adult', 'say'],
        ],
      ),
      [
        { name: 'age', type: 'number' },
        { name: 'label', type: 'string' },
        { name: 'shout', type: 'string' },
      ],
    ),
  );

  it.each([
    ['5', 'kid'],
    ['15', 'teen'],
    ['40', 'ADULT OF 40'],
  ])('branches on the first true branch, else by else (age %s)', async (age, expected) => {
    const waiting = (await turn(definition, null, start)).state;
    expect(texts(await turn(definition, waiting, say(age)))).toEqual([expected]);
  });

  it('a condition without the chosen edge ends the journey', async () => {
    const def = valid(
      bot(
        journey(
          'main',
          [msg('a', 'a'), { id: 'c', kind: 'condition', branches: [{ id: 'yes', when: 'true' }] }, msg('b', 'b')],
          [
            ['a', 'c'],
            ['c', 'b', 'else'],
          ],
        ),
      ),
    );
    const result = await turn(def, null, start);
    expect(texts(result)).toEqual(['a']);
    expect(result.state).toBeNull();
  });

  it('a set whose value has the wrong type at run time fails: apology and the end', async () => {
    const def = valid(
      bot(journey('main', [{ id: 's', kind: 'set', assignments: [{ variable: 'n', value: 'number(variables.t)' }] }, msg('m', 'never')], chain('s', 'm')), [
        { name: 'n', type: 'number' },
        { name: 't', type: 'string', default: 'abc' },
      ]),
    );
    const result = await turn(def, null, start);
    expect(texts(result)).toEqual(['Sorry, something went wrong. Please try again later.']);
    expect(result.steps[0]).toMatchObject({ node: 's', outcome: 'error', error: expect.stringContaining('"n" is declared number') });
    expect(result.state).toBeNull();
  });
});

describe('runTurn: function nodes', () => {
  const definition = (extra: Partial<BotDefinition> = {}, node: Partial<Extract<BotNode, { kind: 'function' }>> = {}) =>
    valid(
      bot(
        journey(
          'main',
          [{ id: 'fn', kind: 'function', code: 'return 1', variable: 'profile', ...node }, msg('ok', 'Hi {{variables.profile.userName}}'), msg('err', 'fallback')],
          [
            ['fn', 'ok'],
            ['fn', 'err', 'error'],
          ],
        ),
        [{ name: 'profile', type: 'object' }],
        extra,
      ),
    );

  it('calls the sandbox with the payload, a copy of the variables and the limits, and stores the value', async () => {
    const ports = fakePorts({ functions: () => returned({ userName: 'Ana' }, { cpuMs: 3 }) });
    const result = await turn(definition(), null, { kind: 'start', payload: '{"userName":"Ana"}' }, ports);
    expect(ports.functionCalls).toEqual([{ code: 'return 1', payload: '{"userName":"Ana"}', variables: { profile: {} }, timeoutMs: 50, memoryBytes: 16 * 1024 * 1024 }]);
    expect(texts(result)).toEqual(['Hi Ana']);
    expect(result.steps[0]).toMatchObject({ node: 'fn', kind: 'function', outcome: 'ok', sandboxMs: 3 });
  });

  it('takes the limits from the node, then the settings', async () => {
    const ports = fakePorts({ functions: () => returned({}) });
    await turn(definition({ settings: { functionTimeoutMs: 200, functionMemoryMb: 32 } }), null, start, ports);
    await turn(definition({ settings: { functionTimeoutMs: 200 } }, { timeoutMs: 900 }), null, start, ports);
    expect(ports.functionCalls.map((call) => [call.timeoutMs, call.memoryBytes])).toEqual([
      [200, 32 * 1024 * 1024],
      [900, 16 * 1024 * 1024],
    ]);
  });

  it('the sandbox cannot change the variables it was given', async () => {
    const ports = fakePorts({
      functions: (request) => {
        (request.variables.profile as Record<string, unknown>).hacked = true;
        return returned({ userName: 'B' });
      },
    });
    const def = valid(
      bot(journey('main', [{ id: 'fn', kind: 'function', code: 'x' }, ask('q', 'answer', { type: 'text' })], chain('fn', 'q')), [
        { name: 'profile', type: 'object', default: { a: 1 } },
        { name: 'answer', type: 'string' },
      ]),
    );
    const result = await turn(def, null, start, ports);
    expect(result.steps[0]).toMatchObject({ node: 'fn', outcome: 'ok' });
    expect(result.state?.variables).toEqual({ profile: { a: 1 }, answer: '' });
  });

  it('turns app.sendEvent calls into event outputs in order and gathers the logs', async () => {
    const events = [
      { code: 'sendReactNativeEvent', data: { code: 'a', data: '1' } },
      { code: 'sendReactNativeEvent', data: { code: 'b', data: '2' } },
    ];
    const ports = fakePorts({ functions: () => returned({ userName: 'A' }, { events, logs: ['one', 'two'] }) });
    const result = await turn(definition(), null, start, ports);
    expect(result.outputs).toEqual([
      { kind: 'event', event: events[0] },
      { kind: 'event', event: events[1] },
      { kind: 'reply', reply: { text: 'Hi A' } },
    ]);
    expect(result.logs).toEqual(['one', 'two']);
  });

  it.each([
    ['timeout', 'limit'],
    ['memory', 'limit'],
    ['threw', 'error'],
    ['unsettled', 'error'],
  ] as const)('a %s failure follows the error edge with outcome %s', async (failure, outcome) => {
    const ports = fakePorts({ functions: () => ({ ok: false, failure, message: 'boom', events: [], logs: ['before'], cpuMs: 50 }) });
    const result = await turn(definition(), null, start, ports);
    expect(texts(result)).toEqual(['fallback']);
    expect(result.steps[0]).toMatchObject({ node: 'fn', outcome, error: `${failure}: boom`, sandboxMs: 50 });
    expect(result.logs).toEqual(['before']);
  });

  it('without an error edge, a failure sends the apology and ends the journey', async () => {
    const def = valid(bot(journey('main', [{ id: 'fn', kind: 'function', code: 'x' }, msg('ok', 'ok')], chain('fn', 'ok')), [], { settings: { apology: 'Oh no' } }));
    const ports = fakePorts({ functions: () => ({ ok: false, failure: 'timeout', message: 'CPU time limit', events: [], logs: [], cpuMs: 50 }) });
    const result = await turn(def, null, start, ports);
    expect(texts(result)).toEqual(['Oh no']);
    expect(result.state).toBeNull();
  });

  it('a value of the wrong type for the variable is an error', async () => {
    const result = await turn(definition(), null, start, fakePorts({ functions: () => returned('a string') }));
    expect(texts(result)).toEqual(['fallback']);
    expect(result.steps[0]).toMatchObject({ outcome: 'error', error: 'the function returned a string, but "profile" is declared object' });
  });

  it('a sandbox that throws is an error step, not a crash', async () => {
    const result = await turn(
      definition(),
      null,
      start,
      fakePorts({
        functions: () => {
          throw new Error('isolate died');
        },
      }),
    );
    expect(texts(result)).toEqual(['fallback']);
    expect(result.steps[0]).toMatchObject({ outcome: 'error', error: 'the sandbox failed: isolate died' });
  });
});

describe('runTurn: http nodes', () => {
  const node: BotNode = {
    id: 'call',
    kind: 'http',
    method: 'POST',
    url: 'https://api.example.com/users/{{variables.name}}?key={{secrets.KEY}}',
    headers: { authorization: 'Bearer {{secrets.KEY}}', 'x-name': '{{variables.name}}' },
    body: { name: '{{variables.name}}', nested: ['{{payload}}', 3] },
    map: [
      { variable: 'status', path: 'status' },
      { variable: 'city', path: 'body.address.city' },
      { variable: 'whole', path: 'body' },
    ],
  };
  const definition = valid(
    bot(
      journey(
        'main',
        [msg('first', 'calling'), node, msg('ok', '{{variables.city}} {{variables.status}}'), msg('err', 'failed {{variables.status}}')],
        [
          ['first', 'call'],
          ['call', 'ok'],
          ['call', 'err', 'error'],
        ],
      ),
      [
        { name: 'name', type: 'string', default: 'a/b"c\r\nX-Evil: 1' },
        { name: 'status', type: 'number' },
        { name: 'city', type: 'string' },
        { name: 'whole', type: 'object' },
      ],
    ),
  );

  it('renders the request with secrets and escaping, and maps the answer into variables', async () => {
    const ports = fakePorts({ http: () => ({ ok: true, status: 200, body: { address: { city: 'Berlin' } } }), secrets: { KEY: 's3cr&t' } });
    const result = await turn(definition, null, { kind: 'start', payload: '{"a":1}' }, ports);
    expect(ports.httpCalls).toEqual([
      {
        method: 'POST',
        url: 'https://api.example.com/users/a%2Fb%22c%0D%0AX-Evil%3A%201?key=s3cr%26t',
        headers: { authorization: 'Bearer s3cr&t', 'x-name': 'a/b"cX-Evil: 1', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'a/b"c\r\nX-Evil: 1', nested: ['{"a":1}', 3] }),
        timeoutMs: 5000,
      },
    ]);
    expect(texts(result)).toEqual(['calling', 'Berlin 200']);
    expect(result.steps[1]).toMatchObject({ node: 'call', kind: 'http', outcome: 'ok' });
  });

  it('reads the secrets only when an http node runs, once per turn', async () => {
    const ports = fakePorts({ http: () => ({ ok: true, status: 200, body: { address: { city: 'X' } } }) });
    await turn(valid(bot(journey('main', [msg('m', 'no http')]))), null, start, ports);
    expect(ports.secretReads()).toBe(0);
    await turn(definition, null, start, ports);
    expect(ports.secretReads()).toBe(1);
  });

  it('a failed call follows the error edge, with the secrets scrubbed from the step error', async () => {
    const ports = fakePorts({ http: () => ({ ok: false, error: 'connect ECONNREFUSED for key=s3cr3t' }), secrets: { KEY: 's3cr3t' } });
    const result = await turn(definition, null, start, ports);
    expect(texts(result)).toEqual(['calling', 'failed 0']);
    expect(result.steps[1]).toMatchObject({ outcome: 'error', error: 'connect ECONNREFUSED for key=[secret]' });
  });

  it('a non-2xx status is an error; the status is still mapped', async () => {
    const result = await turn(definition, null, start, fakePorts({ http: () => ({ ok: true, status: 503, body: 'down' }) }));
    expect(texts(result)).toEqual(['calling', 'failed 503']);
    expect(result.steps[1]).toMatchObject({ outcome: 'error', error: 'the server answered 503' });
  });

  it('a body that does not fit the mapped variable is an error', async () => {
    const result = await turn(definition, null, start, fakePorts({ http: () => ({ ok: true, status: 200, body: { address: { city: 42 } } }) }));
    expect(result.steps[1]).toMatchObject({ outcome: 'error', error: `the answer's body.address.city is a number, but "city" is declared string` });
  });

  it('a URL that stops being http(s) fails the node', async () => {
    const def = valid(
      bot(journey('main', [{ id: 'call', kind: 'http', method: 'GET', url: 'https://example.com{{variables.port}}/x' }, msg('e', 'err')], [['call', 'e', 'error']]), [
        { name: 'port', type: 'string', default: ':abc' },
      ]),
    );
    const ports = fakePorts({ http: () => ({ ok: true, status: 200, body: null }) });
    const result = await turn(def, null, start, ports);
    expect(ports.httpCalls).toEqual([]);
    expect(result.steps[0]).toMatchObject({ outcome: 'error', error: 'the URL is not a valid URL once rendered' });
  });
});

describe('runTurn: goto, handoff, handback', () => {
  const definition = valid(
    bot(
      [
        journey('main', [msg('a', 'in main'), { id: 'jump', kind: 'goto', journey: 'help' }], chain('a', 'jump')),
        journey(
          'help',
          [msg('h', 'in help'), { id: 'human', kind: 'handoff', text: 'A person will answer', reason: 'asked' }, msg('back', 'I am back'), ask('q', 'v', { type: 'text' })],
          chain('h', 'human', 'back', 'q'),
        ),
        journey('silent', [{ id: 'human', kind: 'handoff' }]),
      ],
      [{ name: 'v', type: 'string' }],
    ),
  );

  it('goto continues in the other journey, and a handoff waits for an agent', async () => {
    const result = await turn(definition, null, start);
    expect(texts(result)).toEqual(['in main', 'in help', 'A person will answer', 'handoff']);
    expect(result.outputs[3]).toEqual({ kind: 'handoff', reason: 'asked' });
    expect(result.steps.map((step) => `${step.journey}/${step.node}:${step.outcome}`)).toEqual(['main/a:ok', 'main/jump:ok', 'help/h:ok', 'help/human:waiting']);
    expect(result.state).toMatchObject({ journey: 'help', node: 'human', status: 'handoff' });
  });

  it('stays silent during the handoff, even for a journey payload or a start', async () => {
    const state = (await turn(definition, null, start)).state!;
    expect(await turn(definition, state, say('hello?'))).toEqual({ state, outputs: [], steps: [], logs: [] });
    expect(await turn(definition, state, say('x', 'journey:main'))).toEqual({ state, outputs: [], steps: [], logs: [] });
    expect(await turn(definition, state, start)).toEqual({ state, outputs: [], steps: [], logs: [] });
  });

  it('a handback follows the handoff node next edge', async () => {
    const state = (await turn(definition, null, start)).state!;
    const result = await turn(definition, state, { kind: 'handback' });
    expect(texts(result)).toEqual(['I am back', 'q?']);
    expect(result.steps[0]).toMatchObject({ node: 'human', kind: 'handoff', outcome: 'ok' });
    expect(result.state).toMatchObject({ journey: 'help', node: 'q', status: 'waiting' });
  });

  it('a conversation an agent took over at a question is asked that question again when handed back', async () => {
    const waiting = (await turn(definition, (await turn(definition, null, start)).state!, { kind: 'handback' })).state!;
    const takenOver = { ...waiting, status: 'handoff' as const };
    const result = await turn(definition, takenOver, { kind: 'handback' });
    expect(texts(result)).toEqual(['q?']);
    expect(result.state).toMatchObject({ journey: 'help', node: 'q', status: 'waiting' });
  });

  it('a handback without a next edge ends the journey; a handback outside a handoff changes nothing', async () => {
    const state = (await turn(definition, null, { kind: 'start', payload: null, journeySlug: 'silent' })).state!;
    expect(state.status).toBe('handoff');
    const result = await turn(definition, state, { kind: 'handback' });
    expect(result.state).toBeNull();
    expect(result.outputs).toEqual([]);
    const waiting = (await turn(definition, state, { kind: 'handback' })).state;
    expect(await turn(definition, null, { kind: 'handback' })).toEqual({ state: null, outputs: [], steps: [], logs: [] });
    const gone = { ...state, node: 'removed-in-this-version' };
    expect(await turn(definition, gone, { kind: 'handback' })).toEqual({ state: null, outputs: [], steps: [], logs: [] });
    expect(waiting).toBeNull();
  });
});

describe('runTurn: step limit', () => {
  // A loop that waits is valid; the step limit guards a turn that runs long without one.
  const long = valid(
    bot(
      journey(
        'main',
        Array.from({ length: 30 }, (_, i) => msg(`m${i}`, `${i}`)),
        chain(...Array.from({ length: 30 }, (_, i) => `m${i}`)),
      ),
    ),
  );

  it('stops after maxSteps node runs: a limit step, the apology, the end', async () => {
    const result = await turn(long, null, start, fakePorts(), { maxSteps: 10 });
    expect(result.steps).toHaveLength(11);
    expect(result.steps[10]).toMatchObject({ node: 'm10', outcome: 'limit', error: 'more than 10 steps in one turn' });
    expect(texts(result).at(-1)).toBe('Sorry, something went wrong. Please try again later.');
    expect(texts(result)).toHaveLength(11);
    expect(result.state).toBeNull();
  });

  it('allows 200 steps by default', async () => {
    const result = await turn(long, null, start);
    expect(result.steps).toHaveLength(30);
    expect(result.steps.every((step) => step.outcome === 'ok')).toBe(true);
  });

  it('a loop through a question runs one pass per turn', async () => {
    const def = valid(
      bot(
        journey(
          'main',
          [ask('q', 'n', { type: 'number' }), { id: 'add', kind: 'set', assignments: [{ variable: 'sum', value: 'variables.sum + variables.n' }] }, msg('m', 'sum {{variables.sum}}')],
          [...chain('q', 'add', 'm'), ['m', 'q']],
        ),
        [
          { name: 'n', type: 'number' },
          { name: 'sum', type: 'number' },
        ],
      ),
    );
    let state = (await turn(def, null, start)).state;
    for (const n of ['1', '2', '3']) {
      const result = await turn(def, state, say(n));
      state = result.state;
      expect(result.steps).toHaveLength(4);
    }
    expect(state?.variables.sum).toBe(6);
  });
});
