import type {
  AnswerCheck,
  BotButton,
  BotCard,
  BotDefinition,
  BotEdge,
  BotJourney,
  BotSettings,
  BotVariable,
  ConditionNode,
  EndNode,
  FunctionNode,
  GotoNode,
  HandoffNode,
  HttpNode,
  MessageNode,
  QuestionNode,
  SetNode,
} from '@platform/contracts';
import { botDefinitionJsonSchema } from './bot-definition.schema.js';
import { validateBotDefinition } from './validate-bot-definition.js';

/**
 * The JSON Schema and its TypeScript mirror (libs/contracts/src/bots/bot-definition.ts) must agree. Each list
 * below is typed `Record<keyof T, true>`, so TypeScript refuses it when a field is added to or removed from the
 * type; the spec then compares it with the schema's properties.
 */
const keys = <T>(record: Record<keyof T, true>) => Object.keys(record).sort();
const base = { id: true, label: true, kind: true } as const;
const mirror: Record<string, string[]> = {
  definition: keys<BotDefinition>({ schemaVersion: true, startJourney: true, variables: true, journeys: true, settings: true }),
  variable: keys<BotVariable>({ name: true, type: true, default: true }),
  settings: keys<BotSettings>({ functionTimeoutMs: true, functionMemoryMb: true, apology: true }),
  journey: keys<BotJourney>({ slug: true, name: true, start: true, nodes: true, edges: true }),
  edge: keys<BotEdge>({ from: true, to: true, on: true }),
  button: keys<BotButton>({ title: true, payload: true }),
  card: keys<BotCard>({ title: true, subtitle: true, imageUrl: true, buttons: true }),
  messageNode: keys<MessageNode>({ ...base, text: true, quickReplies: true, image: true, cards: true }),
  questionNode: keys<QuestionNode>({ ...base, text: true, quickReplies: true, answer: true, variable: true, retryPrompt: true, maxRetries: true }),
  conditionNode: keys<ConditionNode>({ ...base, branches: true }),
  functionNode: keys<FunctionNode>({ ...base, code: true, variable: true, timeoutMs: true }),
  httpNode: keys<HttpNode>({ ...base, method: true, url: true, headers: true, body: true, timeoutMs: true, map: true }),
  setNode: keys<SetNode>({ ...base, assignments: true }),
  gotoNode: keys<GotoNode>({ ...base, journey: true }),
  handoffNode: keys<HandoffNode>({ ...base, text: true, reason: true }),
  endNode: keys<EndNode>({ ...base, text: true }),
};

type Schema = { properties?: Record<string, Schema>; items?: Schema; $defs?: Record<string, Schema>; oneOf?: Schema[]; required?: string[] };
const schema = botDefinitionJsonSchema as Schema;
const defs = schema.$defs!;
const propertiesOf = (s: Schema) => Object.keys(s.properties ?? {}).sort();

describe('the bot definition JSON Schema', () => {
  it('has the same fields as the TypeScript types, object by object', () => {
    const journeys = schema.properties!.journeys.items!;
    expect(propertiesOf(schema)).toEqual(mirror.definition);
    expect(propertiesOf(schema.properties!.variables.items!)).toEqual(mirror.variable);
    expect(propertiesOf(schema.properties!.settings)).toEqual(mirror.settings);
    expect(propertiesOf(journeys)).toEqual(mirror.journey);
    expect(propertiesOf(journeys.properties!.edges.items!)).toEqual(mirror.edge);
    expect(propertiesOf(defs.button)).toEqual(mirror.button);
    expect(propertiesOf(defs.messageNode.properties!.cards.items!)).toEqual(mirror.card);
    for (const kind of ['message', 'question', 'condition', 'function', 'http', 'set', 'goto', 'handoff', 'end']) {
      expect([kind, propertiesOf(defs[`${kind}Node`])]).toEqual([kind, mirror[`${kind}Node`]]);
    }
  });

  it('knows every answer check type, with the same fields', () => {
    const checks = defs.answerCheck.oneOf!.map((check) => [(check.properties!.type as { const: string }).const, propertiesOf(check)]);
    const mirrored: Array<[AnswerCheck['type'], string[]]> = [
      ['text', keys<Extract<AnswerCheck, { type: 'text' }>>({ type: true, minLength: true, maxLength: true })],
      ['number', keys<Extract<AnswerCheck, { type: 'number' }>>({ type: true, min: true, max: true })],
      ['email', ['type']],
      ['phone', ['type']],
      ['choice', keys<Extract<AnswerCheck, { type: 'choice' }>>({ type: true, choices: true })],
      ['pattern', keys<Extract<AnswerCheck, { type: 'pattern' }>>({ type: true, pattern: true, flags: true })],
    ];
    expect(checks).toEqual(mirrored);
  });

  it('accepts a complete example that sets every optional field, typed as a BotDefinition', () => {
    const complete: BotDefinition = {
      schemaVersion: 1,
      startJourney: 'all',
      variables: [
        { name: 's', type: 'string', default: 'x' },
        { name: 'n', type: 'number', default: 1 },
        { name: 'b', type: 'boolean', default: true },
        { name: 'o', type: 'object', default: { a: 1 } },
        { name: 'a', type: 'array', default: [1] },
        { name: 'p', type: 'string' },
      ],
      settings: { functionTimeoutMs: 1000, functionMemoryMb: 64, apology: 'Sorry' },
      journeys: [
        {
          slug: 'all',
          name: 'Everything',
          start: 'm1',
          nodes: [
            { id: 'm1', label: 'text', kind: 'message', text: 'Hi {{variables.s}}', quickReplies: [{ title: 'A', payload: 'a' }, { title: 'B' }] },
            { id: 'm2', kind: 'message', image: { url: 'https://x.example/{{variables.s}}.png', caption: 'c' } },
            { id: 'm3', kind: 'message', cards: [{ title: 't', subtitle: 'st', imageUrl: 'https://x.example/i.png', buttons: [{ title: 'Go', payload: 'journey:all' }] }] },
            { id: 'q1', kind: 'question', text: 'Q', quickReplies: [{ title: 'x' }], answer: { type: 'text', minLength: 1, maxLength: 10 }, variable: 's', retryPrompt: 'again', maxRetries: 10 },
            { id: 'q2', kind: 'question', text: 'Q', answer: { type: 'number', min: 0, max: 9 }, variable: 'n' },
            { id: 'q3', kind: 'question', text: 'Q', answer: { type: 'email' }, variable: 's' },
            { id: 'q4', kind: 'question', text: 'Q', answer: { type: 'phone' }, variable: 's' },
            { id: 'q5', kind: 'question', text: 'Q', answer: { type: 'choice', choices: [{ title: 'Yes', payload: 'y' }] }, variable: 'p' },
            { id: 'q6', kind: 'question', text: 'Q', answer: { type: 'pattern', pattern: '^a', flags: 'i' }, variable: 's' },
            { id: 'c', kind: 'condition', branches: [{ id: 'big', when: 'variables.n > 5' }] },
            { id: 'f', kind: 'function', code: 'return {}', variable: 'o', timeoutMs: 1000 },
            {
              id: 'h',
              kind: 'http',
              method: 'PATCH',
              url: 'https://api.example.com/{{variables.s}}',
              headers: { authorization: 'Bearer {{secrets.T}}' },
              body: { s: '{{variables.s}}', n: 1 },
              timeoutMs: 10000,
              map: [
                { variable: 'n', path: 'status' },
                { variable: 'o', path: 'body' },
                { variable: 's', path: 'body.a.b' },
              ],
            },
            { id: 'set', kind: 'set', assignments: [{ variable: 'b', value: '!variables.b' }] },
            { id: 'hand', kind: 'handoff', text: 'A person', reason: 'asked' },
            { id: 'g', kind: 'goto', journey: 'other' },
            { id: 'e', kind: 'end', text: 'Bye' },
          ],
          edges: [
            { from: 'm1', to: 'm2' },
            { from: 'm2', to: 'm3' },
            { from: 'm3', to: 'q1', on: 'next' },
            { from: 'q1', to: 'q2' },
            { from: 'q1', to: 'e', on: 'invalid' },
            { from: 'q2', to: 'q3' },
            { from: 'q3', to: 'q4' },
            { from: 'q4', to: 'q5' },
            { from: 'q5', to: 'q6' },
            { from: 'q6', to: 'c' },
            { from: 'c', to: 'f', on: 'big' },
            { from: 'c', to: 'h', on: 'else' },
            { from: 'f', to: 'h' },
            { from: 'f', to: 'e', on: 'error' },
            { from: 'h', to: 'set' },
            { from: 'h', to: 'e', on: 'error' },
            { from: 'set', to: 'hand' },
            { from: 'hand', to: 'g' },
          ],
        },
        { slug: 'other', start: 'bye', nodes: [{ id: 'bye', kind: 'end' }], edges: [] },
      ],
    };
    expect(validateBotDefinition(JSON.parse(JSON.stringify(complete)))).toEqual({ ok: true, definition: complete, warnings: expect.any(Array) });
  });
});
