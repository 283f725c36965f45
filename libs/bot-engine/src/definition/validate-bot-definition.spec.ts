import type { BotDefinition, BotNode, DefinitionError } from '@platform/contracts';
import { exampleBotDefinition } from '../example-bot.definition.js';
import { bot, chain, journey } from '../testing/definition-builders.js';
import { validateBotDefinition } from './validate-bot-definition.js';

function errorsOf(doc: unknown): DefinitionError[] {
  const result = validateBotDefinition(doc);
  if (result.ok) throw new Error('expected the definition to be refused');
  return result.errors;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const msg = (id: string, text = 'hi'): BotNode => ({ id, kind: 'message', text });

describe('validateBotDefinition', () => {
  it('accepts the example bot and returns it typed', () => {
    const result = validateBotDefinition(clone(exampleBotDefinition));
    expect(result).toEqual({ ok: true, definition: exampleBotDefinition, warnings: expect.any(Array) });
  });

  it('warns, without refusing, of a question with no "invalid" edge: its retries used up would end in the apology', () => {
    const ask = (id: string, maxRetries?: number): BotNode => ({
      id,
      kind: 'question',
      text: `${id}?`,
      answer: { type: 'number' },
      variable: 'n',
      ...(maxRetries !== undefined ? { maxRetries } : {}),
    });
    const doc = bot(journey('main', [ask('handled'), ask('bare'), ask('once', 1), msg('done')], [...chain('handled', 'bare', 'once', 'done'), ['handled', 'done', 'invalid']]), [
      { name: 'n', type: 'number' },
    ]);
    const result = validateBotDefinition(doc);
    expect(result).toEqual({
      ok: true,
      definition: doc,
      warnings: [
        { journey: 'main', node: 'bare', field: 'maxRetries', message: expect.stringContaining('no "invalid" edge: after 2 retries without a valid answer the user gets the apology') },
        { journey: 'main', node: 'once', field: 'maxRetries', message: expect.stringContaining('after 1 retry without') },
      ],
    });
  });

  describe('schema errors, located by journey slug and node id', () => {
    it('refuses what is not a definition', () => {
      expect(errorsOf(null)).toEqual([{ message: 'must be object' }]);
      expect(errorsOf({})).toEqual(
        expect.arrayContaining([
          { field: 'schemaVersion', message: 'is required' },
          { field: 'journeys', message: 'is required' },
        ]),
      );
      expect(errorsOf({ ...clone(exampleBotDefinition), schemaVersion: 2 })).toEqual([{ field: 'schemaVersion', message: 'must be 1' }]);
    });

    it('names the journey and node of a node error, not their indexes', () => {
      const doc = clone(exampleBotDefinition) as unknown as { journeys: Array<{ nodes: Array<Record<string, unknown>> }> };
      doc.journeys[1].nodes[2].answer = { type: 'pattern' };
      doc.journeys[0].nodes[1].text = 'x'.repeat(4097);
      doc.journeys[0].nodes[0].timeoutMs = 1001;
      doc.journeys[0].nodes[3].extra = true;
      expect(errorsOf(doc)).toEqual(
        expect.arrayContaining([
          { journey: 'shop', node: 'ask-size', field: 'answer.pattern', message: 'is required' },
          { journey: 'main', node: 'greet', field: 'text', message: 'must be at most 4096 characters' },
          { journey: 'main', node: 'parse-payload', field: 'timeoutMs', message: 'must be <= 1000' },
          { journey: 'main', node: 'is-adult', field: 'extra', message: 'is not a known field' },
        ]),
      );
    });

    it('refuses an unknown node kind by its field', () => {
      const doc = bot(journey('main', [{ id: 'x', kind: 'teleport' } as unknown as BotNode]));
      expect(errorsOf(doc)).toEqual([{ journey: 'main', node: 'x', field: 'kind', message: 'must be one of the known kinds' }]);
    });

    it('holds messages to what the reply API accepts', () => {
      const nodes: BotNode[] = [
        { id: 'none', kind: 'message' },
        { id: 'two', kind: 'message', text: 'a', image: { url: 'https://x.example/a.png' } },
        { id: 'qr-no-text', kind: 'message', image: { url: 'https://x.example/a.png' }, quickReplies: [{ title: 'a' }] },
        { id: 'four-qr', kind: 'message', text: 'a', quickReplies: [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }] },
        { id: 'long-title', kind: 'message', text: 'a', quickReplies: [{ title: 'x'.repeat(21) }] },
        { id: 'blank', kind: 'message', text: '   ' },
        { id: 'cards', kind: 'message', cards: Array.from({ length: 11 }, () => ({ title: 't', buttons: [] })) },
        { id: 'card', kind: 'message', cards: [{ title: 'x'.repeat(81), buttons: [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }] }] },
        { id: 'no-cards', kind: 'message', cards: [] },
      ];
      const errors = errorsOf(bot(journey('main', nodes, chain(...nodes.map((n) => n.id)))));
      expect(errors).toEqual(
        expect.arrayContaining([
          { journey: 'main', node: 'none', message: 'needs exactly one of text, image or cards' },
          { journey: 'main', node: 'two', message: 'needs exactly one of text, image or cards' },
          { journey: 'main', node: 'qr-no-text', field: 'quickReplies', message: 'goes with text' },
          { journey: 'main', node: 'four-qr', field: 'quickReplies', message: 'must contain at most 3 items' },
          { journey: 'main', node: 'long-title', field: 'quickReplies[0].title', message: 'must be at most 20 characters' },
          { journey: 'main', node: 'blank', field: 'text', message: 'must not be blank' },
          { journey: 'main', node: 'cards', field: 'cards', message: 'must contain at most 10 items' },
          { journey: 'main', node: 'card', field: 'cards[0].title', message: 'must be at most 80 characters' },
          { journey: 'main', node: 'card', field: 'cards[0].buttons', message: 'must contain at most 3 items' },
          { journey: 'main', node: 'no-cards', field: 'cards', message: 'must contain at least 1 item' },
        ]),
      );
    });

    it('bounds journeys, nodes, settings and limits', () => {
      const many = bot(Array.from({ length: 51 }, (_, i) => journey(`j${i}`, [msg('a')])));
      expect(errorsOf(many)).toEqual([{ field: 'journeys', message: 'must contain at most 50 items' }]);
      const big = bot(
        journey(
          'main',
          Array.from({ length: 301 }, (_, i) => msg(`n${i}`)),
        ),
      );
      expect(errorsOf(big)).toEqual([{ journey: 'main', field: 'nodes', message: 'must contain at most 300 items' }]);
      const settings = bot(journey('main', [msg('a')]), [], { settings: { functionTimeoutMs: 0, functionMemoryMb: 65 } });
      expect(errorsOf(settings)).toEqual([
        { field: 'settings.functionTimeoutMs', message: 'must be >= 1' },
        { field: 'settings.functionMemoryMb', message: 'must be <= 64' },
      ]);
      const limits = bot(
        journey('main', [
          { id: 'h', kind: 'http', method: 'GET', url: 'https://x.example', timeoutMs: 10001 },
          { id: 'q', kind: 'question', text: 'q', answer: { type: 'text' }, variable: 'v', maxRetries: 11 },
          { id: 'f', kind: 'function', code: 'x'.repeat(65537) },
        ]),
      );
      expect(errorsOf(limits)).toEqual([
        { journey: 'main', node: 'h', field: 'timeoutMs', message: 'must be <= 10000' },
        { journey: 'main', node: 'q', field: 'maxRetries', message: 'must be <= 10' },
        { journey: 'main', node: 'f', field: 'code', message: 'must be at most 65536 characters' },
      ]);
    });

    it('refuses bad names', () => {
      const doc = bot(journey('Main Journey', [msg('a b')]), [{ name: '1x', type: 'string' }]);
      expect(errorsOf(doc)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ journey: 'Main Journey', field: 'slug' }),
          expect.objectContaining({ journey: 'Main Journey', node: 'a b', field: 'id' }),
          expect.objectContaining({ field: 'variables[0].name' }),
        ]),
      );
    });
  });

  describe('graph errors', () => {
    it('duplicate slugs, node ids, variables and branch ids', () => {
      const doc = bot(
        [
          journey(
            'main',
            [
              msg('a'),
              msg('a'),
              {
                id: 'c',
                kind: 'condition',
                branches: [
                  { id: 'x', when: 'true' },
                  { id: 'x', when: 'false' },
                  { id: 'else', when: 'true' },
                ],
              },
            ],
            [['a', 'c']],
          ),
          journey('main', [msg('b')]),
        ],
        [
          { name: 'v', type: 'string' },
          { name: 'v', type: 'number' },
        ],
      );
      expect(errorsOf(doc)).toEqual(
        expect.arrayContaining([
          { journey: 'main', field: 'journeys[1].slug', message: 'the journey slug "main" is used twice' },
          { journey: 'main', node: 'a', field: 'id', message: 'the node id "a" is used twice in this journey' },
          { field: 'variables[1].name', message: 'the variable "v" is declared twice' },
          { journey: 'main', node: 'c', field: 'branches[1].id', message: 'the branch id "x" is used twice' },
          { journey: 'main', node: 'c', field: 'branches[2].id', message: expect.stringContaining('"else" is the label') },
        ]),
      );
    });

    it('a start journey or start node that does not exist', () => {
      const doc = { ...bot(journey('main', [msg('a')], [], 'zzz')), startJourney: 'nope' };
      expect(errorsOf(doc)).toEqual([
        { field: 'startJourney', message: 'no journey has the slug "nope"' },
        // Reachability is only judged from a start that exists.
        { journey: 'main', field: 'start', message: 'the start node "zzz" is not a node of this journey' },
      ]);
    });

    it('dangling edges', () => {
      const doc = bot(
        journey(
          'main',
          [msg('a')],
          [
            ['a', 'ghost'],
            ['ghost', 'a'],
          ],
        ),
      );
      expect(errorsOf(doc)).toEqual([
        { journey: 'main', node: 'a', field: 'edges[0].to', message: 'the edge leads to "ghost", which is not a node of this journey' },
        { journey: 'main', field: 'edges[1].from', message: 'the edge leaves "ghost", which is not a node of this journey' },
      ]);
    });

    it('labels a node cannot produce, and two edges with one label', () => {
      const doc = bot([
        journey(
          'main',
          [msg('m'), { id: 'c', kind: 'condition', branches: [{ id: 'yes', when: 'true' }] }, msg('a'), msg('b'), { id: 'g', kind: 'goto', journey: 'other' }, { id: 'e', kind: 'end' }],
          [
            ['m', 'c'],
            ['m', 'a', 'error'],
            ['c', 'a', 'yes'],
            ['c', 'b', 'no'],
            ['c', 'b', 'else'],
            ['c', 'g', 'else'],
            ['g', 'e'],
            ['a', 'e'],
          ],
        ),
        journey('other', [msg('o')]),
      ]);
      expect(errorsOf(doc)).toEqual([
        { journey: 'main', node: 'm', field: 'edges[1].on', message: 'a message node never produces "error": it leaves by "next"' },
        { journey: 'main', node: 'c', field: 'edges[3].on', message: 'a condition node never produces "no": it leaves by "yes", "else"' },
        { journey: 'main', node: 'c', field: 'edges[5].on', message: 'the node has two "else" edges' },
        { journey: 'main', node: 'g', field: 'edges[6].on', message: 'a goto node never produces "next": it has no outgoing edges' },
      ]);
    });

    it('unreachable nodes', () => {
      const doc = bot(
        journey(
          'main',
          [msg('a'), msg('b'), msg('island'), msg('island2')],
          [
            ['a', 'b'],
            ['island', 'island2'],
          ],
        ),
      );
      expect(errorsOf(doc)).toEqual([
        { journey: 'main', node: 'island', field: 'id', message: 'the node "island" cannot be reached from the journey\'s start "a"' },
        { journey: 'main', node: 'island2', field: 'id', message: 'the node "island2" cannot be reached from the journey\'s start "a"' },
      ]);
    });

    it('goto an unknown journey', () => {
      expect(errorsOf(bot(journey('main', [{ id: 'g', kind: 'goto', journey: 'nowhere' }])))).toEqual([
        { journey: 'main', node: 'g', field: 'journey', message: 'goto names the journey "nowhere", which does not exist' },
      ]);
    });
  });

  describe('variables and types', () => {
    it('unknown variables wherever they are read or written', () => {
      const doc = bot(
        journey(
          'main',
          [
            { id: 'm', kind: 'message', text: 'Hi {{variables.ghost.name}}', quickReplies: [{ title: '{{variables.t}}' }] },
            { id: 'c', kind: 'condition', branches: [{ id: 'y', when: 'variables.c1 > 1' }] },
            { id: 's', kind: 'set', assignments: [{ variable: 's1', value: 'variables.s2' }] },
            { id: 'f', kind: 'function', code: 'x', variable: 'f1' },
            {
              id: 'h',
              kind: 'http',
              method: 'POST',
              url: 'https://x.example/{{variables.h1}}',
              headers: { a: '{{variables.h2}}' },
              body: { k: ['{{variables.h3}}'] },
              map: [{ variable: 'h4', path: 'body' }],
            },
            { id: 'q', kind: 'question', text: 'q', answer: { type: 'text' }, variable: 'q1' },
          ],
          [
            ['m', 'c'],
            ['c', 's', 'y'],
            ['c', 'f', 'else'],
            ['s', 'h'],
            ['f', 'h'],
            ['h', 'q'],
          ],
        ),
      );
      const errors = errorsOf(doc).map((error) => `${error.node}.${error.field}: ${error.message}`);
      expect(errors).toEqual([
        'm.text: {{variables.ghost.name}} reads the variable "ghost", which is not declared',
        'm.quickReplies[0].title: {{variables.t}} reads the variable "t", which is not declared',
        'c.branches[0].when: the expression reads the variable "c1", which is not declared',
        's.assignments[0].variable: the variable "s1" is not declared',
        's.assignments[0].value: the expression reads the variable "s2", which is not declared',
        'f.variable: the variable "f1" is not declared',
        'h.url: {{variables.h1}} reads the variable "h1", which is not declared',
        'h.headers.a: {{variables.h2}} reads the variable "h2", which is not declared',
        'h.body.k[0]: {{variables.h3}} reads the variable "h3", which is not declared',
        'h.map[0].variable: the variable "h4" is not declared',
        'q.variable: the variable "q1" is not declared',
      ]);
    });

    it('type mismatches: defaults, answers, set values, the http status', () => {
      const doc = bot(
        journey(
          'main',
          [
            { id: 'qn', kind: 'question', text: 'n', answer: { type: 'number' }, variable: 's' },
            { id: 'qe', kind: 'question', text: 'e', answer: { type: 'email' }, variable: 'n' },
            { id: 'qc', kind: 'question', text: 'c', answer: { type: 'choice', choices: [{ title: 'a' }] }, variable: 'o' },
            {
              id: 'set',
              kind: 'set',
              assignments: [
                { variable: 'n', value: '"text"' },
                { variable: 's', value: 'variables.n > 1' },
                { variable: 'b', value: '[1, 2]' },
                { variable: 'n', value: 'len(variables.s)' },
                { variable: 's', value: 'variables.o.anything' },
              ],
            },
            { id: 'h', kind: 'http', method: 'GET', url: 'https://x.example', map: [{ variable: 's', path: 'status' }] },
          ],
          chain('qn', 'qe', 'qc', 'set', 'h'),
        ),
        [
          { name: 's', type: 'string', default: 1 },
          { name: 'n', type: 'number', default: '1' },
          { name: 'o', type: 'object', default: [] },
          { name: 'b', type: 'boolean' },
        ],
      );
      const errors = errorsOf(doc).map((error) => `${error.node ?? ''}.${error.field}: ${error.message}`);
      expect(errors).toEqual([
        '.variables[0].default: the default is a number, but "s" is declared string',
        '.variables[1].default: the default is a string, but "n" is declared number',
        '.variables[2].default: the default is an array, but "o" is declared object',
        'qn.variable: a number answer is stored as a number, but "s" is declared string',
        'qe.variable: an email answer is stored as a string, but "n" is declared number',
        'qc.variable: a choice answer is stored as a string, but "o" is declared object',
        'set.assignments[0].value: the value is a string, but "n" is declared number',
        'set.assignments[1].value: the value is a boolean, but "s" is declared string',
        'set.assignments[2].value: the value is an array, but "b" is declared boolean',
        'h.map[0].variable: the status is a number, but "s" is declared string',
      ]);
    });
  });

  describe('templates, expressions, patterns, URLs', () => {
    it('placeholders that are not paths, and secrets outside http nodes', () => {
      const doc = bot(
        journey(
          'main',
          [
            { id: 'm', kind: 'message', text: '{{ variables.v }} {{1+1}} {{variables.v.constructor}} {{payload.x}} {{variables}} {{secrets.KEY}}' },
            { id: 'h', kind: 'http', method: 'GET', url: 'https://x.example/?k={{secrets.KEY}}', headers: { a: '{{secrets.A.B}}' } },
            { id: 'e', kind: 'end', text: '{{ secrets.KEY }}' },
          ],
          chain('m', 'h', 'e'),
        ),
        [{ name: 'v', type: 'object' }],
      );
      expect(errorsOf(doc).map((error) => `${error.node}.${error.field}: ${error.message}`)).toEqual([
        'm.text: {{1+1}} is not a path: use {{variables.<name>...}}, {{payload}} or, in http nodes, {{secrets.<NAME>}}',
        'm.text: {{variables.v.constructor}} uses the member name "constructor", which is not allowed',
        'm.text: {{payload.x}}: the payload is a JSON string; parse it in a function node and read the variable',
        'm.text: {{variables}} names no variable: use {{variables.<name>}}',
        'm.text: {{secrets.KEY}}: secrets can only be used in http nodes (url, headers, body)',
        'h.headers.a: {{secrets.A.B}} must name one secret: {{secrets.<NAME>}}',
        'e.text: {{ secrets.KEY }}: secrets can only be used in http nodes (url, headers, body)',
      ]);
    });

    it('expressions that do not parse or use forbidden things', () => {
      const whens = ['variables.a >', 'this.x', 'variables.a.constructor', 'process.exit()', 'variables.a.toString()', 'new Date()', 'variables.a = 1', 'eval("1")', 'variables["a"]["__proto__"]'];
      const doc = bot(journey('main', [{ id: 'c', kind: 'condition', branches: whens.map((when, i) => ({ id: `b${i}`, when })) }]), [{ name: 'a', type: 'object' }]);
      const errors = errorsOf(doc);
      expect(errors).toHaveLength(whens.length);
      errors.forEach((error, i) => expect(error).toMatchObject({ journey: 'main', node: 'c', field: `branches[${i}].when`, message: expect.stringMatching(/^the expression /) }));
    });

    it('invalid or dangerous patterns and flags, and contradictory bounds', () => {
      const q = (id: string, answer: Extract<BotNode, { kind: 'question' }>['answer']): BotNode => ({ id, kind: 'question', text: 'q', answer, variable: id.startsWith('n') ? 'n' : 'v' });
      const nodes = [
        q('p1', { type: 'pattern', pattern: '([a-z' }),
        q('p2', { type: 'pattern', pattern: 'a', flags: 'ii' }),
        q('p3', { type: 'pattern', pattern: '(a+)+$' }),
        q('p4', { type: 'pattern', pattern: '(\\w)\\1' }),
        q('p5', { type: 'pattern', pattern: '(a|aa)*b' }),
        q('p6', { type: 'pattern', pattern: '^[A-Z]{2}(-\\d{3})?$' }),
        q('t1', { type: 'text', minLength: 5, maxLength: 2 }),
        q('n1', { type: 'number', min: 5, max: 2 }),
        q('c1', { type: 'choice', choices: [{ title: 'Yes', payload: 'y' }, { title: 'yes' }] }),
      ];
      const errors = errorsOf(
        bot(journey('main', nodes, chain(...nodes.map((n) => n.id))), [
          { name: 'v', type: 'string' },
          { name: 'n', type: 'number' },
        ]),
      );
      expect(errors.map((error) => `${error.node}.${error.field}`)).toEqual([
        'p1.answer.pattern',
        'p2.answer.flags',
        'p3.answer.pattern',
        'p4.answer.pattern',
        'p5.answer.pattern',
        't1.answer.minLength',
        'n1.answer.min',
        'c1.answer.choices[1]',
      ]);
    });

    it('refuses the stateful flags g and y in the schema', () => {
      const doc = bot(journey('main', [{ id: 'p', kind: 'question', text: 'q', answer: { type: 'pattern', pattern: 'a', flags: 'gy' }, variable: 'v' }]), [{ name: 'v', type: 'string' }]);
      expect(errorsOf(doc)).toEqual([{ journey: 'main', node: 'p', field: 'answer.flags', message: 'must match ^[imsu]{0,4}$' }]);
    });

    it('URLs whose scheme or host is not written out', () => {
      const doc = bot(
        journey(
          'main',
          [
            { id: 'i', kind: 'message', image: { url: '{{variables.u}}' } },
            { id: 'c', kind: 'message', cards: [{ title: 't', imageUrl: 'ftp://x.example/a.png', buttons: [] }] },
            { id: 'h', kind: 'http', method: 'GET', url: 'https://{{variables.u}}/path' },
            { id: 'ok', kind: 'http', method: 'POST', url: 'http://127.0.0.1:8080/{{variables.u}}?q={{variables.u}}', body: 'raw {{variables.u}}' },
          ],
          chain('i', 'c', 'h', 'ok'),
        ),
        [{ name: 'u', type: 'string' }],
      );
      expect(errorsOf(doc).map((error) => `${error.node}.${error.field}`)).toEqual(['i.image.url', 'c.cards[0].imageUrl', 'h.url']);
    });

    it('a GET with a body, a choice question with its own quick replies', () => {
      const doc = bot(
        journey(
          'main',
          [
            { id: 'h', kind: 'http', method: 'GET', url: 'https://x.example', body: { a: 1 } },
            { id: 'q', kind: 'question', text: 'q', quickReplies: [{ title: 'a' }], answer: { type: 'choice', choices: [{ title: 'a' }] }, variable: 'v' },
          ],
          chain('h', 'q'),
        ),
        [{ name: 'v', type: 'string' }],
      );
      expect(errorsOf(doc)).toEqual([
        { journey: 'main', node: 'h', field: 'body', message: 'a GET request has no body' },
        { journey: 'main', node: 'q', field: 'quickReplies', message: 'a choice question shows its choices as quick replies: remove quickReplies' },
      ]);
    });
  });

  describe('loops that never wait for the user', () => {
    it('a cycle of messages is refused, naming the journey and a node on it', () => {
      const doc = bot(journey('main', [msg('a'), msg('b'), msg('c')], [...chain('a', 'b', 'c'), ['c', 'b']]));
      expect(errorsOf(doc)).toEqual([{ journey: 'main', node: 'b', message: expect.stringContaining('never waits for the user') }]);
    });

    it('a node that leads to itself', () => {
      const doc = bot(journey('main', [{ id: 's', kind: 'set', assignments: [{ variable: 'n', value: 'variables.n + 1' }] }], [['s', 's']]), [{ name: 'n', type: 'number' }]);
      expect(errorsOf(doc)).toEqual([{ journey: 'main', node: 's', message: expect.stringContaining('main/s') }]);
    });

    it('a cycle across journeys through goto', () => {
      const doc = bot([journey('one', [msg('a'), { id: 'g', kind: 'goto', journey: 'two' }], chain('a', 'g')), journey('two', [msg('b'), { id: 'g', kind: 'goto', journey: 'one' }], chain('b', 'g'))]);
      const errors = errorsOf(doc);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ journey: 'one', node: 'a' });
      expect(errors[0].message).toContain('two/b');
    });

    it('accepts cycles through a question or a handoff, and goto into a journey that starts by asking', () => {
      const doc = bot(
        [
          journey('one', [{ id: 'q', kind: 'question', text: 'q', answer: { type: 'text' }, variable: 'v' }, msg('a'), { id: 'g', kind: 'goto', journey: 'two' }], [...chain('q', 'a', 'g')]),
          journey('two', [{ id: 'h', kind: 'handoff' }, msg('b'), { id: 'g', kind: 'goto', journey: 'one' }], chain('h', 'b', 'g')),
          journey('three', [msg('x'), msg('y'), { id: 'q', kind: 'question', text: 'q', answer: { type: 'text' }, variable: 'v' }], [...chain('x', 'y', 'q'), ['q', 'x']]),
        ],
        [{ name: 'v', type: 'string' }],
      );
      expect(validateBotDefinition(doc).ok).toBe(true);
    });

    it('reports every error at once, from every check', () => {
      const doc = clone(exampleBotDefinition) as BotDefinition;
      doc.journeys[0].edges.push({ from: 'bye', to: 'greet' });
      doc.journeys[1].nodes.push({ id: 'lonely', kind: 'message', text: '{{variables.nobody}}' });
      doc.journeys[1].edges.push({ from: 'done', to: 'catalogue' });
      const errors = errorsOf(doc);
      expect(errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ journey: 'main', node: 'bye', field: 'edges[18].on' }),
          expect.objectContaining({ journey: 'shop', node: 'lonely', field: 'id' }),
          expect.objectContaining({ journey: 'shop', node: 'lonely', field: 'text' }),
          expect.objectContaining({ journey: 'shop', node: 'done', field: 'edges[4].on' }),
        ]),
      );
    });
  });
});
