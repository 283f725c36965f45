import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { DefaultIntrinsics, newVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSSyncVariant } from 'quickjs-emscripten-core';
import type { BotAppEvent, FunctionRunFailure, FunctionRunner, FunctionRunOutcome, FunctionRunRequest } from '@platform/contracts';
import { checkAppEvent } from './app-event.js';
import { SANDBOX_HELPERS, SANDBOX_PRELUDE, SandboxHelperName } from './sandbox-prelude.js';
import { DEFAULT_RUNNER_OPTIONS, QuickJsRunnerOptions, SANDBOX_LIMITS } from './sandbox-limits.js';
import { SDK_CORE_MODULE_NAME, SDK_CORE_MODULE_SOURCE } from './sdk-core-module.js';
import { ThreadCpuClock } from './thread-cpu-clock.js';

/**
 * The variant's types describe its CommonJS build (a namespace with `default`); Node's ESM import gives the
 * variant itself. Either way, this is the variant.
 */
const baseVariant = ((releaseSync as unknown as { default?: QuickJSSyncVariant }).default ?? releaseSync) as QuickJSSyncVariant;

/**
 * The variant with its two dynamic imports (the FFI and Emscripten's loader) done once per process: a
 * reload then only instantiates the compiled WebAssembly (and an import after start-up could fail, e.g.
 * under Jest once a suite's module registry is gone).
 */
let importedVariant: QuickJSSyncVariant | undefined;
async function variantImportedOnce(): Promise<QuickJSSyncVariant> {
  if (!importedVariant) {
    const [ffi, loader] = await Promise.all([baseVariant.importFFI(), baseVariant.importModuleLoader()]);
    importedVariant = { ...baseVariant, importFFI: async () => ffi, importModuleLoader: async () => loader };
  }
  return importedVariant;
}

const WASM_PAGE = 64 * 1024;
/** Emscripten's initial heap for this build (16 MiB); the memory we hand it must be at least that. */
const INITIAL_HEAP_BYTES = 16 * 1024 * 1024;
/** The longest snapshot app.sendEvent may hand over: 16 KiB of data.data, JSON-escaped at worst six-fold. */
const MAX_EVENT_SNAPSHOT_LENGTH = 6 * 17 * 1024;

/**
 * The language the code gets: the default intrinsics without typed arrays. ArrayBuffer memory escapes
 * QuickJS's memory accounting in this build (2 GiB reached under an 8 MiB limit), and bot code that
 * shapes JSON has no use for binary buffers.
 */
const INTRINSICS = { ...DefaultIntrinsics, TypedArrays: false };

/** A code text is an ES module when a line starts with an import or export statement (not `import(`). */
const MODULE_SYNTAX = /^\s*(?:import\s*[\w{*'"]|export\s)/m;

/** One loaded WebAssembly instance of QuickJS and its memory. */
interface Engine {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  /** Set when a call left the instance unusable (a trap or a host stack overflow inside it). */
  broken: boolean;
}

type Stop = 'cpu' | 'wall' | 'memory' | 'stack';

/** The state of one call, shared with the interrupt handler and the app callbacks. */
interface CallState {
  request: FunctionRunRequest;
  events: BotAppEvent[];
  logs: string[];
  /** The thread's CPU ms at the start. */
  cpuStart: number;
  wallStart: number;
  wallLimitMs: number;
  /** Why the interrupt handler stopped the code, once it did. */
  stop: Stop | null;
  /** Wall ms (since the start) at which to measure the heap next: the throttle of that costly walk. */
  nextHeapCheckMs: number;
}

const UNDESCRIBABLE = 'an exception that could not be described';
/** Memory this close to the WebAssembly maximum counts as full: QuickJS's larger allocations (a table doubling) fail there. */
const WASM_HEADROOM_BYTES = 16 * 1024 * 1024;

class Failure {
  constructor(
    readonly failure: FunctionRunFailure,
    readonly message: string,
  ) {}
}

/**
 * The function-node sandbox: QuickJS compiled to WebAssembly (quickjs-emscripten), one fresh runtime and
 * context per call, so nothing a call leaves behind (globals, patched prototypes, pending jobs) reaches the
 * next. Load it once per process with `create()`; `run` never throws. See docs/architecture.md,
 * "Function-node sandbox".
 */
export class QuickJsFunctionRunner implements FunctionRunner {
  private engine: Engine | null = null;
  private loading: Promise<Engine> | null = null;
  private readonly options: Required<QuickJsRunnerOptions>;
  private clock: ThreadCpuClock | null = null;

  private constructor(
    private readonly wasm: WebAssembly.Module,
    options: QuickJsRunnerOptions,
  ) {
    this.options = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  }

  /** Compiles the WebAssembly once and loads the first instance. */
  static async create(options: QuickJsRunnerOptions = {}): Promise<QuickJsFunctionRunner> {
    const wasmPath = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    const runner = new QuickJsFunctionRunner(await WebAssembly.compile(await readFile(wasmPath)), options);
    runner.engine = await runner.load();
    return runner;
  }

  /** How many instances were loaded (the first, then one after each broken or bloated one). */
  loads = 0;

  /** The current instance's WebAssembly memory (it only grows, up to heapCapBytes, until a reload). */
  get heapBytes(): number {
    return this.engine?.memory.buffer.byteLength ?? 0;
  }

  async run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    this.clock ??= ThreadCpuClock.forThisThread();
    const cpuStart = this.clock.nowMs();
    try {
      const engine = this.engine ?? (await this.reload());
      const outcome = this.runOn(engine, request);
      if (engine.broken || engine.memory.buffer.byteLength > this.options.reloadAboveBytes) {
        // Start loading the next instance now; the old one (and its memory) goes once nothing holds it.
        this.engine = null;
        void this.reload().catch(() => undefined);
      }
      return outcome;
    } catch (error) {
      // Only loading the WebAssembly can get here; a run catches its own failures.
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, failure: 'threw', message: `the sandbox could not start: ${message}`, events: [], logs: [], cpuMs: this.cpuMsSince(cpuStart) };
    }
  }

  private reload(): Promise<Engine> {
    this.loading ??= this.load().then(
      (engine) => {
        this.engine = engine;
        this.loading = null;
        return engine;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }

  private async load(): Promise<Engine> {
    // Our own memory, so that its maximum caps what the sandbox can ever take from the process.
    const memory = new WebAssembly.Memory({ initial: INITIAL_HEAP_BYTES / WASM_PAGE, maximum: Math.ceil(this.options.heapCapBytes / WASM_PAGE) });
    // What newQuickJSWASMModuleFromVariant does, minus its own dynamic import on every call.
    const variant = newVariant(await variantImportedOnce(), { wasmModule: this.wasm, wasmMemory: memory });
    const [imported, FFI] = await Promise.all([variant.importModuleLoader(), variant.importFFI()]);
    // newVariant's loader is the plain function (not the { default } forms the type also allows).
    const loader = imported as unknown as () => Promise<ConstructorParameters<typeof FFI>[0]>;
    const emscripten = await loader();
    emscripten.type = 'sync';
    const module = new QuickJSWASMModule(emscripten, new FFI(emscripten));
    this.loads++;
    return { module, memory, broken: false };
  }

  /** One call, synchronously, in a fresh runtime and context on `engine`. */
  private runOn(engine: Engine, request: FunctionRunRequest): FunctionRunOutcome {
    const state: CallState = {
      request,
      events: [],
      logs: [],
      cpuStart: this.cpuMsSince(0),
      wallStart: performance.now(),
      wallLimitMs: Math.max(SANDBOX_LIMITS.wallFactor * request.timeoutMs, SANDBOX_LIMITS.minWallMs),
      stop: null,
      nextHeapCheckMs: 1,
    };
    const finish = (result: { value: unknown } | Failure): FunctionRunOutcome => {
      const common = { events: state.events, logs: state.logs, cpuMs: Math.round(this.cpuMsSince(state.cpuStart) * 1000) / 1000 };
      return result instanceof Failure ? { ok: false, failure: result.failure, message: result.message, ...common } : { ok: true, value: result.value, ...common };
    };
    let runtime: QuickJSRuntime | undefined;
    let context: QuickJSContext | undefined;
    const handles: QuickJSHandle[] = [];
    try {
      runtime = engine.module.newRuntime();
      runtime.setMaxStackSize(this.options.stackBytes);
      const rt = runtime;
      runtime.setInterruptHandler(() => this.shouldInterrupt(state, rt));
      runtime.setModuleLoader((name) => (name === SDK_CORE_MODULE_NAME ? SDK_CORE_MODULE_SOURCE : { error: new Error(`Cannot import '${name}': bot code can import only '${SDK_CORE_MODULE_NAME}'`) }));
      context = runtime.newContext({ intrinsics: INTRINSICS });
      const cap = Math.ceil(this.options.heapCapBytes / WASM_PAGE) * WASM_PAGE;
      const result = new CallScope(context, runtime, state, handles, () => engine.memory.buffer.byteLength + WASM_HEADROOM_BYTES >= cap).call();
      // Release the call's handles before the context: QuickJS refuses to free a runtime with live objects.
      disposeAll(handles);
      context.dispose();
      context = undefined;
      runtime.dispose();
      runtime = undefined;
      return finish(result);
    } catch (error) {
      // A host exception from inside the WebAssembly (Node's stack ran out in a deep C recursion, or an
      // aborted instance): the instance's heap may be half-updated, so it is never used (or freed) again.
      engine.broken = true;
      const hostStack = error instanceof RangeError;
      if (state.stop) return finish(stopFailure(state.stop, request, state));
      return finish(hostStack ? new Failure('memory', 'stack overflow') : new Failure('threw', `the sandbox stopped: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200)));
    }
  }

  /**
   * QuickJS calls this every 10,000 or so bytecodes (and in long regular-expression runs). The thread's CPU
   * time cannot exceed the wall time, so the clock is read only once the wall time is past the CPU limit.
   */
  private shouldInterrupt(state: CallState, runtime: QuickJSRuntime): boolean {
    try {
      if (state.stop) return true;
      const wallMs = performance.now() - state.wallStart;
      if (wallMs > state.wallLimitMs) {
        state.stop = 'wall';
        return true;
      }
      if (wallMs > state.request.timeoutMs && this.cpuMsSince(state.cpuStart) > state.request.timeoutMs) {
        state.stop = 'cpu';
        return true;
      }
      if (wallMs >= state.nextHeapCheckMs) {
        // QuickJS's own limit (setMemoryLimit) counts a few bytes per allocation in this build (no
        // malloc_usable_size in Emscripten), so the heap is also measured by walking it, which costs about
        // 1 ms per MiB in use: at most a tenth of the time goes to it.
        const used = heapInUse(runtime);
        const after = performance.now() - state.wallStart;
        state.nextHeapCheckMs = after + Math.max(1, 10 * (after - wallMs));
        if (used > state.request.memoryBytes) {
          state.stop = 'memory';
          return true;
        }
      }
      return false;
    } catch (error) {
      // Node's own stack ran out (deep recursion through the interpreter): stop the code while QuickJS
      // can still unwind cleanly.
      state.stop = error instanceof RangeError ? 'stack' : 'memory';
      return true;
    }
  }

  private cpuMsSince(start: number): number {
    return (this.clock as ThreadCpuClock).nowMs() - start;
  }
}

/**
 * The handles of one call and the steps on them. Every handle it makes goes into `handles`, which the
 * runner disposes before the context, whatever happens.
 */
class CallScope {
  /** The prelude's `originals` (JSON.stringify, JSON.parse, … as they were before the code ran). */
  private originals: QuickJSHandle | undefined;
  private readonly helpers = new Map<SandboxHelperName, QuickJSHandle>();

  constructor(
    private readonly ctx: QuickJSContext,
    private readonly runtime: QuickJSRuntime,
    private readonly state: CallState,
    private readonly handles: QuickJSHandle[],
    /** Whether the instance's WebAssembly memory is at its maximum (a failed allocation cannot be retried bigger). */
    private readonly wasmFull: () => boolean,
  ) {}

  call(): { value: unknown } | Failure {
    const { ctx, state } = this;
    const request = state.request;
    // The prelude can fail too: a tiny CPU limit on a loaded host ends the call already here.
    const prelude = this.attempt(ctx.evalCode(SANDBOX_PRELUDE, 'prelude.js', { type: 'global', strict: true }));
    if (prelude instanceof Failure) return prelude;
    const hostSend = this.keep(ctx.newFunction('sendEvent', (event) => this.onSendEvent(event)));
    const hostLog = this.keep(ctx.newFunction('log', (values) => this.onLog(values)));
    const made = this.attempt(ctx.callFunction(prelude, ctx.undefined, hostSend, hostLog));
    if (made instanceof Failure) return made;
    const app = this.keep(ctx.getProp(made, 'app'));
    this.originals = this.keep(ctx.getProp(made, 'originals'));

    let variablesJson: string;
    try {
      variablesJson = JSON.stringify(request.variables ?? {});
    } catch {
      return new Failure('threw', 'the variables are not JSON');
    }
    const payload = request.payload === null || request.payload === undefined ? ctx.null : this.keep(ctx.newString(request.payload));
    const variablesText = this.keep(ctx.newString(variablesJson));
    // QuickJS's own limit from here on: the context and the inputs are in place. It refuses any one
    // allocation over the limit; the interrupt handler measures the rest.
    this.runtime.setMemoryLimit(request.memoryBytes);
    const variables = this.callOriginal('parse', variablesText);
    if (variables instanceof Failure) return variables;

    let called: QuickJSHandle | Failure;
    if (MODULE_SYNTAX.test(request.code)) {
      const main = this.moduleMain(request.code);
      if (main instanceof Failure) return main;
      const options = this.keep(ctx.newObject());
      ctx.setProp(options, 'variables', variables);
      ctx.setProp(options, 'app', app);
      called = this.attempt(ctx.callFunction(main, ctx.undefined, payload, options));
    } else {
      const compiled = this.attempt(ctx.evalCode(`(async function (payload, variables, app) {\n${request.code}\n})`, 'function.js', { type: 'global' }));
      if (compiled instanceof Failure) return compiled;
      called = this.attempt(ctx.callFunction(compiled, ctx.undefined, payload, variables, app));
    }
    if (called instanceof Failure) return called;
    const settled = this.settle(called);
    if (settled instanceof Failure) return settled;
    return this.serialise(settled);
  }

  /** Evaluates the module (its top level runs now, under the limits) and returns its default export. */
  private moduleMain(code: string): QuickJSHandle | Failure {
    const evaluated = this.attempt(this.ctx.evalCode(code, 'main.js', { type: 'module' }));
    if (evaluated instanceof Failure) return evaluated;
    const namespace = this.settle(evaluated);
    if (namespace instanceof Failure) return namespace;
    const main = this.keep(this.ctx.getProp(namespace, 'default'));
    if (this.ctx.typeof(main) !== 'function') return new Failure('threw', 'the module must export a default function: export default function main(payload, { variables, app }) { … }');
    return main;
  }

  /** Runs pending jobs until `handle` (a promise or any value) settles; a promise still pending then never will. */
  private settle(handle: QuickJSHandle): QuickJSHandle | Failure {
    for (;;) {
      const jobs = this.runtime.executePendingJobs(64);
      if (jobs.error) {
        this.keep(jobs.error);
        return this.failureOf(jobs.error);
      }
      if (jobs.value === 0) break;
      if (this.state.stop) return stopFailure(this.state.stop, this.state.request, this.state);
    }
    const promise = this.ctx.getPromiseState(handle);
    if (promise.type === 'pending') return new Failure('unsettled', 'the returned promise never settled (nothing outside the sandbox can resolve it)');
    if (promise.type === 'rejected') return this.failureOf(this.keep(promise.error));
    return promise.notAPromise ? handle : this.keep(promise.value);
  }

  /** The result as JSON, made inside the sandbox and refused there when too large. */
  private serialise(value: QuickJSHandle): { value: unknown } | Failure {
    const type = this.ctx.typeof(value);
    if (type === 'undefined') return { value: null };
    if (type === 'function' || type === 'symbol') return new Failure('invalid_result', `the result is a ${type}, which has no JSON form`);
    const json = this.callOriginal('stringify', value, 'invalid_result');
    if (json instanceof Failure) return json;
    if (this.ctx.typeof(json) !== 'string') return new Failure('invalid_result', 'the result has no JSON form (its toJSON returned undefined)');
    // Every UTF-16 unit is at least one UTF-8 byte: a longer string is too large before it is copied out.
    const length = this.lengthOf(json);
    if (length > SANDBOX_LIMITS.maxResultBytes) return new Failure('result_too_large', `the result's JSON is over ${SANDBOX_LIMITS.maxResultBytes} bytes`);
    const text = this.ctx.getString(json);
    if (Buffer.byteLength(text) > SANDBOX_LIMITS.maxResultBytes) return new Failure('result_too_large', `the result's JSON is over ${SANDBOX_LIMITS.maxResultBytes} bytes`);
    return { value: JSON.parse(text) as unknown };
  }

  /** app.sendEvent(event): undefined when the event is kept, a problem for the sandbox to throw, or the code's own exception. */
  private onSendEvent(event: QuickJSHandle): QuickJSHandle | { error: QuickJSHandle } | undefined {
    const { ctx, state } = this;
    if (state.events.length >= SANDBOX_LIMITS.maxEvents) return ctx.newString(`app.sendEvent: at most ${SANDBOX_LIMITS.maxEvents} events per run`);
    const snapshot = this.callHelper('snapshot', event);
    if ('error' in snapshot) return snapshot; // the event's own getters threw (or a limit hit): rethrown as is
    if (ctx.typeof(snapshot.value) !== 'string') return ctx.newString('app.sendEvent: the event could not be read');
    if (this.lengthOf(snapshot.value) > MAX_EVENT_SNAPSHOT_LENGTH) return ctx.newString('app.sendEvent: the event is too large (data.data: at most 16384 characters)');
    let parsed: unknown;
    try {
      parsed = JSON.parse(ctx.getString(snapshot.value));
    } catch {
      return ctx.newString('app.sendEvent: the event could not be read');
    }
    const checked = checkAppEvent(parsed);
    if (!checked.ok) return ctx.newString(checked.problem);
    state.events.push(checked.event);
    return undefined;
  }

  /** app.log(...values): never throws for the code's values; lines past the limit are dropped. */
  private onLog(values: QuickJSHandle): { error: QuickJSHandle } | undefined {
    const { ctx, state } = this;
    if (state.logs.length >= SANDBOX_LIMITS.maxLogLines) return undefined;
    const line = this.callHelper('format', values);
    if ('error' in line) return line; // only a limit (the formatter catches everything else)
    if (ctx.typeof(line.value) !== 'string') return undefined;
    // The formatter cuts long lines; a line still too long means the code bent the built-ins it uses.
    state.logs.push(this.lengthOf(line.value) > SANDBOX_LIMITS.maxLogLineLength ? '[log line too long]' : ctx.getString(line.value));
    return undefined;
  }

  /** Calls a helper (compiled on first use in this call) from inside a host callback; an exception is handed back, not kept. */
  private callHelper(name: SandboxHelperName, arg: QuickJSHandle): { value: QuickJSHandle } | { error: QuickJSHandle } {
    const helper = this.helper(name);
    if (helper instanceof Failure) return { error: this.ctx.newError({ name: 'InternalError', message: helper.message }) };
    const result = this.ctx.callFunction(helper, this.ctx.undefined, arg);
    if ('error' in result && result.error) return { error: result.error };
    return { value: this.keep((result as { value: QuickJSHandle }).value) };
  }

  private helper(name: SandboxHelperName): QuickJSHandle | Failure {
    const known = this.helpers.get(name);
    if (known) return known;
    // Not through attempt(): describing a failure needs this very helper.
    const failed = (result: { error: QuickJSHandle }) => {
      this.keep(result.error);
      return this.state.stop ? stopFailure(this.state.stop, this.state.request, this.state) : new Failure('memory', `the sandbox's ${name} helper could not be compiled (memory limit)`);
    };
    const factory = this.ctx.evalCode(SANDBOX_HELPERS[name], `${name}.js`, { type: 'global', strict: true });
    if ('error' in factory && factory.error) return failed(factory);
    const made = this.ctx.callFunction(this.keep((factory as { value: QuickJSHandle }).value), this.ctx.undefined, this.originals as QuickJSHandle);
    if ('error' in made && made.error) return failed(made);
    const helper = this.keep((made as { value: QuickJSHandle }).value);
    this.helpers.set(name, helper);
    return helper;
  }

  private callOriginal(name: 'parse' | 'stringify', arg: QuickJSHandle, failure: FunctionRunFailure = 'threw'): QuickJSHandle | Failure {
    const fn = this.keep(this.ctx.getProp(this.originals as QuickJSHandle, name));
    return this.attempt(this.ctx.callFunction(fn, this.ctx.undefined, arg), failure);
  }

  private lengthOf(text: QuickJSHandle): number {
    return this.ctx.getNumber(this.keep(this.ctx.getProp(text, 'length')));
  }

  /** The value of a call into the sandbox, or the failure its exception stands for. */
  private attempt(result: { value: QuickJSHandle } | { error: QuickJSHandle }, failure: FunctionRunFailure = 'threw'): QuickJSHandle | Failure {
    if ('error' in result && result.error) return this.failureOf(this.keep(result.error), failure);
    return this.keep((result as { value: QuickJSHandle }).value);
  }

  /** What a thrown value means: a limit the interrupt handler enforced, QuickJS's own limits, or the code's own error. */
  private failureOf(thrown: QuickJSHandle, failure: FunctionRunFailure = 'threw'): Failure {
    if (this.state.stop) return stopFailure(this.state.stop, this.state.request, this.state);
    const described = this.describe(thrown);
    // Describing runs the thrown value's getters, which may themselves hit a limit.
    if (this.state.stop) return stopFailure(this.state.stop, this.state.request, this.state);
    if (/^InternalError: (out of memory|string too long)/.test(described)) return new Failure('memory', `over the memory limit of ${mib(this.state.request.memoryBytes)} (${described})`);
    if (described === 'InternalError: stack overflow' || described === 'RangeError: Maximum call stack size exceeded') return new Failure('memory', 'stack overflow');
    // QuickJS throws null when memory runs out where it cannot even make the error (a Map's table growing),
    // and a value that cannot be described may have run out the same way: with the heap past the limit
    // (before the interrupt handler's next measure) or the WebAssembly memory unable to grow, it is that.
    if (described === 'null' || described === UNDESCRIBABLE) {
      if (this.wasmFull()) return new Failure('memory', "out of memory: the sandbox's whole heap is in use");
      if (heapInUse(this.runtime) > this.state.request.memoryBytes) return stopFailure('memory', this.state.request, this.state);
    }
    return new Failure(failure, described.slice(0, SANDBOX_LIMITS.maxMessageLength));
  }

  private describe(thrown: QuickJSHandle): string {
    if (!this.originals) return 'the sandbox prelude failed';
    const helper = this.helper('describe');
    if (helper instanceof Failure) return UNDESCRIBABLE;
    const result = this.ctx.callFunction(helper, this.ctx.undefined, thrown);
    if ('error' in result && result.error) {
      this.keep(result.error);
      return UNDESCRIBABLE;
    }
    const text = this.keep((result as { value: QuickJSHandle }).value);
    if (this.ctx.typeof(text) !== 'string' || this.lengthOf(text) > 4 * SANDBOX_LIMITS.maxMessageLength) return UNDESCRIBABLE;
    return this.ctx.getString(text);
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }
}

function stopFailure(stop: Stop, request: FunctionRunRequest, state: CallState): Failure {
  switch (stop) {
    case 'cpu':
      return new Failure('timeout', `over the CPU-time limit of ${request.timeoutMs} ms`);
    case 'wall':
      return new Failure('timeout', `not done after ${state.wallLimitMs} ms of wall-clock time (CPU limit ${request.timeoutMs} ms; the host is loaded)`);
    case 'memory':
      return new Failure('memory', `over the memory limit of ${mib(request.memoryBytes)}`);
    case 'stack':
      return new Failure('memory', 'stack overflow');
  }
}

/** QuickJS's own count of the bytes its objects, strings, shapes and bytecode take (JS_ComputeMemoryUsage). */
function heapInUse(runtime: QuickJSRuntime): number {
  const usage = runtime.computeMemoryUsage();
  try {
    const ctx = (runtime as unknown as { getSystemContext(): QuickJSContext }).getSystemContext();
    if (ctx.typeof(usage) !== 'object') return Number.POSITIVE_INFINITY; // could not even allocate the answer
    const used = ctx.getProp(usage, 'memory_used_size');
    try {
      return ctx.getNumber(used);
    } finally {
      used.dispose();
    }
  } finally {
    usage.dispose();
  }
}

function disposeAll(handles: QuickJSHandle[]): void {
  for (let i = handles.length - 1; i >= 0; i--) if (handles[i].alive) handles[i].dispose();
  handles.length = 0;
}

function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}
