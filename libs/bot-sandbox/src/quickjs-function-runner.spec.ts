import { InvalidPayloadError } from '../../sdk-core/src/errors/index.js';
import { parseBotPayload } from '../../sdk-core/src/bot-helpers/parse-bot-payload.js';
import type { FunctionRunOutcome, FunctionRunRequest } from '@platform/contracts';
import { QuickJsFunctionRunner } from './quickjs-function-runner.js';
import { SDK_SNIPPET } from './measure-warm-calls.js';

let runner: QuickJsFunctionRunner;
beforeAll(async () => {
  runner = await QuickJsFunctionRunner.create();
});

const run = (code: string, extra: Partial<FunctionRunRequest> = {}): Promise<FunctionRunOutcome> =>
  runner.run({ code, payload: null, variables: {}, timeoutMs: 200, memoryBytes: 16 * 1024 * 1024, ...extra });

const value = async (code: string, extra: Partial<FunctionRunRequest> = {}): Promise<unknown> => {
  const outcome = await run(code, extra);
  if (!outcome.ok) throw new Error(`${outcome.failure}: ${outcome.message}`);
  return outcome.value;
};

describe('QuickJsFunctionRunner: the two code forms', () => {
  it('runs a function body with payload, variables and app', async () => {
    expect(await value('return JSON.parse(payload).userName', { payload: '{"userName":"Ada"}' })).toBe('Ada');
    expect(await value('return [payload, variables.n + 1, typeof app.sendEvent, typeof app.log]', { variables: { n: 41 } })).toEqual([null, 42, 'function', 'function']);
  });

  it('runs the docs/sdk.md snippet exactly: a parsed payload, or {} when it is not an object', async () => {
    expect(await value(SDK_SNIPPET, { payload: '{"userName":"Ada","JourneySlug":"welcome"}' })).toEqual({ userName: 'Ada', JourneySlug: 'welcome' });
    expect(await value(SDK_SNIPPET, { payload: 'not json' })).toEqual({});
    expect(await value(SDK_SNIPPET, { payload: null })).toEqual({});
  });

  it('calls a module default export as main(payload, { variables, app })', async () => {
    const code = 'export default function main(payload, { variables, app }) { app.log("n", variables.n); return { payload, n: variables.n }; }';
    const outcome = await run(code, { payload: '"x"', variables: { n: 3 } });
    expect(outcome).toMatchObject({ ok: true, value: { payload: '"x"', n: 3 }, logs: ['n 3'] });
  });

  it('awaits async functions and returned promises (pending jobs run inside the call)', async () => {
    expect(await value('const a = await Promise.resolve(20); return a + (await new Promise((r) => r(22)));')).toBe(42);
    expect(await value('export default async function main() { await null; return "done"; }')).toBe('done');
    expect(await value('export const x = await Promise.resolve(5);\nexport default () => x * 2;')).toBe(10);
  });

  it('gives the code a copy of the variables: its changes do not reach the caller', async () => {
    const variables = { list: [1], nested: { a: 1 } };
    expect(await value('variables.list.push(2); variables.nested.a = 9; return variables;', { variables })).toEqual({ list: [1, 2], nested: { a: 9 } });
    expect(variables).toEqual({ list: [1], nested: { a: 1 } });
  });

  it('refuses a module without a default function, and every import but the SDK helper', async () => {
    expect(await run('export const x = 1;')).toMatchObject({ ok: false, failure: 'threw', message: expect.stringContaining('default function') });
    for (const name of ['fs', 'os', 'std', 'node:fs', './local.js', '@bot-platform/sdk-core/other']) {
      const outcome = await run(`import x from '${name}';\nexport default () => x;`);
      expect(outcome).toMatchObject({ ok: false, failure: 'threw' });
      expect(!outcome.ok && outcome.message).toContain(`Cannot import`);
    }
    expect(await run("import { BotSession } from '@bot-platform/sdk-core';\nexport default () => 1;")).toMatchObject({ ok: false, failure: 'threw', message: expect.stringContaining('BotSession') });
  });
});

describe('parseBotPayload in the sandbox behaves like libs/sdk-core', () => {
  const inSandbox = `import { parseBotPayload, InvalidPayloadError, SdkError } from '@bot-platform/sdk-core';
export default function main(payload, { variables }) {
  try {
    return { value: parseBotPayload(variables.input) };
  } catch (error) {
    return { name: error.name, reason: error.reason, message: error.message, isInvalid: error instanceof InvalidPayloadError, isSdk: error instanceof SdkError, isError: error instanceof Error };
  }
}`;
  const onHost = (input: unknown) => {
    try {
      return { value: parseBotPayload(input) };
    } catch (error) {
      const e = error as InvalidPayloadError;
      return { name: e.name, reason: e.reason, message: e.message, isInvalid: true, isSdk: true, isError: true };
    }
  };

  it.each([['{"a":1}'], ['{}'], [{ a: 1 }], ['[1]'], ['null'], ['3'], ['"text"'], [null], [7], [[1]], [true]])('%j', async (input) => {
    const expected = onHost(input);
    expect(await value(inSandbox, { variables: { input } })).toEqual(expected);
  });

  it('refuses invalid JSON with reason invalidJson (the parser detail is QuickJS’s own wording)', async () => {
    const host = onHost('{oops');
    const sandbox = (await value(inSandbox, { variables: { input: '{oops' } })) as Record<string, unknown>;
    expect(sandbox).toMatchObject({ name: 'InvalidPayloadError', reason: 'invalidJson', isInvalid: true, isSdk: true, isError: true });
    expect(host.reason).toBe('invalidJson');
    expect(sandbox.message).toMatch(/^The bot payload is not valid JSON: /);
  });
});

describe('app.sendEvent and app.log', () => {
  const event = (data: string) => `{ code: 'sendReactNativeEvent', data: { code: 'openScreen', data: ${data} } }`;

  it('collects valid events; data.data given as a plain object is JSON-encoded', async () => {
    const outcome = await run(`app.sendEvent(${event(`'{"screen":"cart"}'`)}); app.sendEvent(${event(`{ screen: 'home', n: 1 }`)});`);
    expect(outcome).toMatchObject({
      ok: true,
      events: [
        { code: 'sendReactNativeEvent', data: { code: 'openScreen', data: '{"screen":"cart"}' } },
        { code: 'sendReactNativeEvent', data: { code: 'openScreen', data: '{"screen":"home","n":1}' } },
      ],
    });
  });

  it('throws a catchable TypeError inside the sandbox for a bad event, and keeps none of it', async () => {
    const cases = [
      ['null', 'the event must be an object'],
      [`{ code: 'openScreen', data: { code: 'x', data: '{}' } }`, 'send<Platform>Event'],
      [`{ code: 'sendWebEvent', data: { code: ' ', data: '{}' } }`, 'blank'],
      [event(`'[1,2]'`), 'JSON object'],
      [event(`[1, 2]`), 'JSON object'],
      [event(`'{bad'`), 'JSON object'],
      [event(`() => 1`), 'data.data'],
      [event(`{ big: 'x'.repeat(17000) }`), '16384'],
      [event(`{ big: '"'.repeat(17000) }`), '16384'],
    ];
    for (const [bad, problem] of cases) {
      const outcome = await run(`try { app.sendEvent(${bad}); return 'sent'; } catch (e) { return [e instanceof TypeError, e.message]; }`);
      expect(outcome).toMatchObject({ ok: true, events: [] });
      const [isTypeError, message] = (outcome.ok ? outcome.value : []) as [boolean, string];
      expect(isTypeError).toBe(true);
      expect(message).toContain(problem);
    }
  });

  it('allows 10 events per call; the 11th throws', async () => {
    const outcome = await run(`for (let i = 0; i < 10; i++) app.sendEvent(${event(`{ i }`)}); try { app.sendEvent(${event(`{}`)}); } catch (e) { return e.message; }`);
    expect(outcome.ok && outcome.value).toContain('at most 10 events');
    expect(outcome.events).toHaveLength(10);
    expect(outcome.events[9].data.data).toBe('{"i":9}');
  });

  it('an uncaught bad event fails the call as threw, and the events sent before it are kept', async () => {
    const outcome = await run(`app.sendEvent(${event(`{}`)}); app.sendEvent({ code: 'nope' });`);
    expect(outcome).toMatchObject({ ok: false, failure: 'threw', message: expect.stringContaining('TypeError: app.sendEvent: code must be a send<Platform>Event') });
    expect(outcome.events).toHaveLength(1);
  });

  it('keeps 20 log lines of at most 1000 characters, formats values as JSON, and never throws', async () => {
    const outcome = await run(`for (let i = 0; i < 25; i++) app.log('line', i, { i }, [i], null, undefined); app.log('y'.repeat(5000)); const c = {}; c.c = c; app.log(c); return 1;`);
    expect(outcome.ok).toBe(true);
    expect(outcome.logs).toHaveLength(20);
    expect(outcome.logs[0]).toBe('line 0 {"i":0} [0] null undefined');
    const long = await run(`app.log('y'.repeat(5000)); const c = {}; c.c = c; app.log(c); app.log(Symbol('s'));`);
    expect(long.logs).toEqual(['y'.repeat(1000), '[object Object]', 'Symbol(s)']);
  });
});

describe('results and failures', () => {
  it('returns JSON values; undefined (no return) is null', async () => {
    expect(await value('return { a: [1, "x", true, null], n: 1.5 }')).toEqual({ a: [1, 'x', true, null], n: 1.5 });
    expect(await value('app.log("only a side effect")')).toBeNull();
    expect(await value('return { f() {}, u: undefined, d: new Date(0) }')).toEqual({ d: '1970-01-01T00:00:00.000Z' });
  });

  it('refuses a result without a JSON form as invalid_result', async () => {
    for (const code of [
      'return () => 1',
      'return Symbol("s")',
      'return 10n',
      'const a = {}; a.a = a; return a;',
      'return { toJSON() { return undefined; } }',
      'return { toJSON() { throw new Error("no"); } }',
    ]) {
      expect(await run(code)).toMatchObject({ ok: false, failure: 'invalid_result' });
    }
  });

  it('reports a thrown value by its message only', async () => {
    expect(await run('throw new Error("bad input")')).toMatchObject({ ok: false, failure: 'threw', message: 'Error: bad input' });
    expect(await run('throw "a string"')).toMatchObject({ ok: false, failure: 'threw', message: 'a string' });
    expect(await run('throw null')).toMatchObject({ ok: false, failure: 'threw', message: 'null' });
    expect(await run('return Promise.reject(new RangeError("later"))')).toMatchObject({ ok: false, failure: 'threw', message: 'RangeError: later' });
    const outcome = await run('function inner() { throw new Error("deep"); }\nfunction outer() { inner(); }\nouter();');
    expect(outcome).toMatchObject({ ok: false, failure: 'threw', message: 'Error: deep' });
    expect(JSON.stringify(outcome)).not.toMatch(/function\.js|at inner|node_modules|\.ts:/);
  });

  it('reports a syntax error as threw', async () => {
    expect(await run('return {')).toMatchObject({ ok: false, failure: 'threw', message: expect.stringMatching(/^SyntaxError/) });
    expect(await run('export default function main( {')).toMatchObject({ ok: false, failure: 'threw', message: expect.stringMatching(/^SyntaxError/) });
  });

  it('reports cpuMs for every outcome', async () => {
    const ok = await run('let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s;');
    expect(ok).toMatchObject({ ok: true, value: 4999950000 });
    expect(ok.cpuMs).toBeGreaterThanOrEqual(0);
    expect((await run('throw 1')).cpuMs).toBeGreaterThanOrEqual(0);
  });
});
