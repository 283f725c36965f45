import type { FunctionRunOutcome, FunctionRunRequest } from '@platform/contracts';
import { QuickJsFunctionRunner } from './quickjs-function-runner.js';

// Hostile function-node code against the real QuickJS sandbox (no mocks). After every attempt a normal
// call must still work: the runner survives whatever the code did.

let runner: QuickJsFunctionRunner;
beforeAll(async () => {
  runner = await QuickJsFunctionRunner.create();
});

const run = (code: string, extra: Partial<FunctionRunRequest> = {}): Promise<FunctionRunOutcome> =>
  runner.run({ code, payload: '{"userName":"Ada"}', variables: { n: 1 }, timeoutMs: 100, memoryBytes: 16 * 1024 * 1024, ...extra });

async function stillWorks(): Promise<void> {
  const body = await run('return JSON.parse(payload).userName + variables.n');
  expect(body.ok ? body.value : body).toBe('Ada1');
  const module = await run("import { parseBotPayload } from '@bot-platform/sdk-core';\nexport default (p) => parseBotPayload(p);");
  expect(module.ok ? module.value : module).toEqual({ userName: 'Ada' });
}

/** Every global name the code may see: the ECMAScript built-ins QuickJS has, minus typed arrays. */
const ALLOWED_GLOBALS = [
  'AggregateError', 'Array', 'BigInt', 'Boolean', 'Date', 'Error', 'EvalError', 'Function', 'Infinity', 'InternalError', 'Iterator', 'JSON', 'Map', 'Math', 'NaN',
  'Number', 'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'String', 'Symbol', 'SyntaxError', 'TypeError', 'URIError',
  'WeakMap', 'WeakSet', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis', 'isFinite', 'isNaN', 'parseFloat',
  'parseInt', 'undefined', 'unescape',
]; // prettier-ignore

const HOST_NAMES = [
  'process', 'require', 'module', 'exports', '__dirname', '__filename', 'Buffer', 'global', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask',
  'console', 'performance', 'WebAssembly', 'SharedArrayBuffer', 'ArrayBuffer', 'Atomics', 'std', 'os', 'print', 'scriptArgs', 'XMLHttpRequest', 'WebSocket', 'Deno', 'Bun',
]; // prettier-ignore

describe('the sandbox gives the code no way out', () => {
  afterEach(stillWorks);

  it("this.constructor.constructor('return process')() finds no process", async () => {
    expect(await run("return this.constructor.constructor('return process')()")).toMatchObject({ ok: false, failure: 'threw', message: "ReferenceError: 'process' is not defined" });
    expect(await run("return this.constructor.constructor('return typeof process + typeof require + typeof globalThis.process')()")).toMatchObject({
      ok: true,
      value: 'undefinedundefinedundefined',
    });
  });

  it('Function, eval and the app methods’ constructors reach only the sandbox’s own global', async () => {
    const probe = (expr: string) => `const g = ${expr}; return [g === globalThis, ${HOST_NAMES.map((n) => `typeof g.${n}`).join(', ')}];`;
    const undefinedAll = HOST_NAMES.map(() => 'undefined');
    for (const expr of [
      "Function('return this')()",
      "eval('this')",
      "(0, eval)('globalThis')",
      "app.sendEvent.constructor('return this')()",
      "app.log.constructor.constructor('return this')()",
      "Object.getPrototypeOf(async function () {}).constructor('return this')",
      '(function () { return this; })()',
    ]) {
      const outcome = await run(probe(expr));
      expect(outcome.ok).toBe(true);
      const [same, ...types] = (outcome.ok ? outcome.value : []) as [boolean, ...string[]];
      if (!expr.includes('async')) expect(same).toBe(true);
      expect(types).toEqual(undefinedAll);
    }
    expect(await run('return app.sendEvent.constructor === Function && Object.getPrototypeOf(app) === Object.prototype')).toMatchObject({ ok: true, value: true });
  });

  it('globalThis holds only ECMAScript built-ins: no host object, no typed arrays', async () => {
    const outcome = await run('return [Object.getOwnPropertyNames(globalThis), Object.getOwnPropertySymbols(globalThis).length, Object.keys(app).sort()]');
    expect(outcome.ok).toBe(true);
    const [names, symbols, appKeys] = (outcome.ok ? outcome.value : []) as [string[], number, string[]];
    expect([...names].sort()).toEqual([...ALLOWED_GLOBALS].sort());
    expect(symbols).toBe(1); // Symbol.toStringTag
    expect(appKeys).toEqual(['log', 'sendEvent']);
    expect(await run(`return [${HOST_NAMES.map((n) => `typeof ${n}`).join(', ')}]`)).toMatchObject({ ok: true, value: HOST_NAMES.map(() => 'undefined') });
  });

  it('imports of fs, os, std and the like fail as thrown errors, static or dynamic', async () => {
    for (const name of ['fs', 'os', 'std', 'node:child_process', 'http']) {
      expect(await run(`import * as m from '${name}';\nexport default () => Object.keys(m);`)).toMatchObject({
        ok: false,
        failure: 'threw',
        message: expect.stringContaining(`Cannot import '${name}'`),
      });
      expect(await run(`const m = await import('${name}'); return Object.keys(m);`)).toMatchObject({ ok: false, failure: 'threw', message: expect.stringContaining(`Cannot import '${name}'`) });
    }
    expect(await run("const m = await import('@bot-platform/sdk-core'); return Object.keys(m).sort();")).toMatchObject({ ok: true, value: ['InvalidPayloadError', 'SdkError', 'parseBotPayload'] });
  });

  it('app is frozen, and its prototype chain is the sandbox’s', async () => {
    const outcome = await run(`
      const tries = [];
      try { app.sendEvent = () => 'mine'; } catch (e) { tries.push(e.name); }
      try { app.extra = 1; } catch (e) { tries.push(e.name); }
      app.__proto__.polluted = 'yes';
      return [Object.isFrozen(app), typeof app.extra, ({}).polluted, tries];`);
    expect(outcome).toMatchObject({ ok: true, value: [true, 'undefined', 'yes', []] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('what one call changes does not reach the next call or the host', () => {
  afterEach(stillWorks);

  it('Object.prototype, Array.prototype, JSON and globals are fresh for each call', async () => {
    const polluted = await run(`
      Object.prototype.polluted = 'yes';
      Object.prototype.toJSON = function () { return 'hijacked'; };
      Array.prototype.push = function () { throw new Error('push hijacked'); };
      JSON.parse = () => ({ hijacked: true });
      globalThis.leftover = 42;
      String.prototype.slice = function () { return this + this; };
      return 1;`);
    expect(polluted.ok).toBe(true);
    const next = await run('const a = []; a.push(1); return [({}).polluted, typeof leftover, JSON.parse("{\\"a\\":1}"), a, "abc".slice(1)];');
    expect(next).toMatchObject({ ok: true, value: [null, 'undefined', { a: 1 }, [1], 'bc'] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
  });

  it('a result with __proto__ keys arrives as plain data, not as a prototype', async () => {
    const outcome = await run('return JSON.parse(\'{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}\')');
    expect(outcome.ok).toBe(true);
    const value = (outcome.ok ? outcome.value : {}) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('bending the sandbox’s own JSON.stringify or String.prototype.slice does not bend the result, events or logs', async () => {
    const outcome = await run(`
      JSON.stringify = () => 'x'.repeat(1e6);
      String.prototype.slice = function () { return this + this; };
      Reflect.apply = () => 'x'.repeat(5000);
      app.log('y'.repeat(3000));
      app.sendEvent({ code: 'sendWebEvent', data: { code: 'c', data: { a: 1 } } });
      return { ok: 1 };`);
    expect(outcome).toMatchObject({ ok: true, value: { ok: 1 }, logs: ['y'.repeat(1000)], events: [{ code: 'sendWebEvent', data: { code: 'c', data: '{"a":1}' } }] });
  });

  it('a promise chain left pending does not run in the next call', async () => {
    const first = await run('globalThis.later = new Promise(() => {}); Promise.resolve().then(() => { for (;;) {} }); return 1;');
    expect(first).toMatchObject({ ok: false, failure: 'timeout' });
    expect(await run('return typeof later')).toMatchObject({ ok: true, value: 'undefined' });
  });
});

describe('limits', () => {
  afterEach(stillWorks);

  it('stops an endless loop near the CPU limit, even one that catches errors', async () => {
    for (const code of ['for (;;) {}', 'while (true) { try { for (;;) {} } catch (e) {} }', 'await null; for (;;) {}', 'for (;;) { try { JSON.parse("{"); } catch (e) {} }']) {
      const outcome = await run(code, { timeoutMs: 60 });
      expect(outcome).toMatchObject({ ok: false, failure: 'timeout' });
      expect(outcome.cpuMs).toBeGreaterThanOrEqual(55);
      expect(outcome.cpuMs).toBeLessThan(200);
    }
  });

  it('stops code that keeps overflowing the stack inside finally blocks, late: QuickJS polls its interrupt handler every 10,000 calls and each overflow walks the stack', async () => {
    const outcome = await run('function f() { try { return f(); } finally { f(); } } f();', { timeoutMs: 60 });
    expect(outcome).toMatchObject({ ok: false, failure: 'timeout' });
    expect(outcome.cpuMs).toBeLessThan(3000); // about 1.2 s of CPU with the 64 KiB stack (documented)
  });

  it('stops an endless stream of promise jobs', async () => {
    const outcome = await run('function f() { Promise.resolve().then(f); } f(); return new Promise(() => {});', { timeoutMs: 60 });
    expect(outcome).toMatchObject({ ok: false, failure: 'timeout' });
  });

  it('stops memory bombs: array growth, string doubling, many strings, a map, a huge array, a huge string', async () => {
    for (const code of [
      'const a = []; for (;;) a.push({ x: 1 });',
      'let s = "x"; for (;;) s = s + s;',
      'let s = "x"; for (let i = 0; i < 40; i++) s += s; return s.length;',
      'const a = []; for (let i = 0; ; i++) a.push(("x".repeat(1000) + i).slice(1));',
      'const m = new Map(); for (let i = 0; ; i++) m.set(i, [i]);',
      'return new Array(1e9).fill(0).length;',
      'return "x".repeat(2 ** 28).length;',
      'return JSON.stringify(new Array(1e7).fill("xxxxxxxx")).length;',
    ]) {
      const outcome = await run(code, { timeoutMs: 1000, memoryBytes: 8 * 1024 * 1024 });
      expect({ code, outcome }).toMatchObject({ code, outcome: { ok: false, failure: 'memory' } });
    }
    // The WebAssembly heap stays under its cap whatever the code allocates.
    expect(runner.heapBytes).toBeLessThanOrEqual(256 * 1024 * 1024);
  });

  it('a Map that outgrows the whole WebAssembly heap is a memory failure, not a throw of null', async () => {
    // QuickJS throws null where it cannot allocate even the error: here the heap's maximum, not the
    // call's limit, is what runs out (as when the interrupt handler's measure comes too late on a loaded host).
    const small = await QuickJsFunctionRunner.create({ heapCapBytes: 48 * 1024 * 1024 });
    const outcome = await small.run({ code: 'const m = new Map(); for (let i = 0; ; i++) m.set(i, [i]);', payload: '{}', variables: {}, timeoutMs: 5000, memoryBytes: 1024 * 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, failure: 'memory', message: "out of memory: the sandbox's whole heap is in use" });
    const after = await small.run({ code: 'return 1 + 1', payload: '{}', variables: {}, timeoutMs: 1000, memoryBytes: 8 * 1024 * 1024 });
    expect(after).toMatchObject({ ok: true, value: 2 });
    // The code's own null, thrown with little memory in use, stays the code's error.
    expect(await run('throw null;')).toMatchObject({ ok: false, failure: 'threw', message: 'null' });
  });

  it('a null thrown with the heap past the call’s limit, before the interrupt handler measured it, is a memory failure', async () => {
    // Four native fills take a few bytecodes, so the handler has not run when the null comes; the arrays
    // are kept in a global, so the heap is still past 4 MiB when the thrown value is read.
    const code = 'globalThis.keep = []; for (let i = 0; i < 4; i++) globalThis.keep.push(new Array(300000).fill(i)); throw null;';
    expect(await run(code, { memoryBytes: 4 * 1024 * 1024 })).toMatchObject({ ok: false, failure: 'memory', message: 'over the memory limit of 4 MiB' });
  });

  it('stops deep recursion as a stack overflow (memory), in JavaScript or in QuickJS’s own C recursion', async () => {
    for (const code of [
      'function f(n) { return f(n + 1) + 1; } return f(0);',
      'const f = (n) => [n].map((x) => f(x + 1)); return f(0);',
      'let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return JSON.stringify(a).length;',
      'let s = ""; for (let i = 0; i < 1e5; i++) s += "["; return eval(s);',
      'let s = ""; for (let i = 0; i < 1e5; i++) s += "("; return eval(s);',
    ]) {
      const outcome = await run(code, { timeoutMs: 1000 });
      expect({ code, outcome }).toMatchObject({ code, outcome: { ok: false, failure: 'memory', message: 'stack overflow' } });
    }
  });

  it('a caught stack overflow is the code’s own business', async () => {
    expect(await run('function f() { return f(); } try { f(); } catch (e) { return e.message; }')).toMatchObject({ ok: true, value: 'stack overflow' });
  });

  it('refuses a huge return value before copying it out', async () => {
    expect(await run('return "x".repeat(300000);')).toMatchObject({ ok: false, failure: 'result_too_large' });
    expect(await run('return "é".repeat(140000);')).toMatchObject({ ok: false, failure: 'result_too_large' }); // 140k units, 280 KB of UTF-8
    expect(await run('return new Array(100000).fill("abc");')).toMatchObject({ ok: false, failure: 'result_too_large' });
    expect(await run('return "x".repeat(200000);')).toMatchObject({ ok: true });
  });

  it('reports a promise that never settles as unsettled; there are no timers to settle it', async () => {
    expect(await run('return new Promise(() => {});')).toMatchObject({ ok: false, failure: 'unsettled' });
    expect(await run('export default async function main() { await new Promise(() => {}); }')).toMatchObject({ ok: false, failure: 'unsettled' });
    expect(await run('return new Promise((resolve) => setTimeout(resolve, 1));')).toMatchObject({ ok: false, failure: 'threw', message: "ReferenceError: 'setTimeout' is not defined" });
  });

  it('reports thrown strings, Errors, null and hostile thrown objects by message only', async () => {
    expect(await run('throw "plain string"')).toMatchObject({ ok: false, failure: 'threw', message: 'plain string' });
    expect(await run('throw new TypeError("typed")')).toMatchObject({ ok: false, failure: 'threw', message: 'TypeError: typed' });
    expect(await run('throw null')).toMatchObject({ ok: false, failure: 'threw', message: 'null' });
    expect(await run('throw undefined')).toMatchObject({ ok: false, failure: 'threw', message: 'undefined' });
    expect(await run('throw { get message() { throw new Error("nested"); } }')).toMatchObject({ ok: false, failure: 'threw', message: 'a value that cannot be described' });
    expect(await run('throw new Proxy({}, { get() { throw 1; } })')).toMatchObject({ ok: false, failure: 'threw' });
    expect(await run('throw { get message() { for (;;) {} } }', { timeoutMs: 60 })).toMatchObject({ ok: false, failure: 'timeout' });
    const long = await run('throw new Error("m".repeat(100000))');
    expect(long).toMatchObject({ ok: false, failure: 'threw' });
    expect(!long.ok && long.message.length).toBeLessThanOrEqual(500);
  });

  it('reports syntax errors as threw', async () => {
    expect(await run('return {')).toMatchObject({ ok: false, failure: 'threw', message: expect.stringMatching(/^SyntaxError/) });
    expect(await run('}); process.exit(1); (function () {')).toMatchObject({ ok: false, failure: 'threw', message: "ReferenceError: 'process' is not defined" });
  });
});
