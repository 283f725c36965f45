// Runs the SDK wire protocol's conformance vectors (test/sdk-protocol/vectors/*.json, "kind": "live")
// against a running gateway: the reference a native iOS, Android or Flutter SDK's own runner follows.
// The format is in docs/sdk-protocol.md ("Conformance vectors"). Used by test/sdk-protocol.e2e-spec.ts
// and by `node dist/tools/sdk-protocol/conformance.js --url … --bot … --api-key …`.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';

export interface Vector {
  name: string;
  kind: 'live' | 'pure';
  description?: string;
  steps?: Step[];
  cases?: unknown[];
}

export type Step =
  | { do: 'http'; method: string; path: string; auth?: 'chatToken' | 'apiKey' | string; body?: unknown; expect: { status: number | number[]; body?: unknown }; save?: Record<string, string> }
  | { do: 'ws.open'; url: string }
  | { do: 'ws.send'; frame: unknown }
  | { do: 'ws.expect'; frame: unknown; timeoutMs?: number; save?: Record<string, string> }
  | { do: 'ws.expectClose'; code: number; timeoutMs?: number }
  | { do: 'ws.close' };

export interface Target {
  /** The gateway's base URL, e.g. http://127.0.0.1:3000. */
  url: string;
  botId: string;
  /** An API key of that bot (bot → app events). The bot needs a webhook URL for app → bot events (else 409). */
  apiKey: string;
}

/** The vectors of a folder, sorted by file name. */
export function loadVectors(dir: string): Array<Vector & { file: string }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Vector) }));
}

/**
 * Why `actual` does not match `expected`, or null when it does. Expected objects match as subsets;
 * `{"$type": "string"}`, `{"$match": "<regex>"}` and `{"$absent": true}` match by shape.
 */
export function mismatch(expected: unknown, actual: unknown, path = '$'): string | null {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    const e = expected as Record<string, unknown>;
    if ('$type' in e) return typeOf(actual) === e.$type ? null : `${path}: expected a ${String(e.$type)}, got ${JSON.stringify(actual)}`;
    if ('$match' in e) return typeof actual === 'string' && new RegExp(String(e.$match)).test(actual) ? null : `${path}: expected to match /${String(e.$match)}/, got ${JSON.stringify(actual)}`;
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(e)) {
      const a = (actual as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object' && (value as Record<string, unknown>).$absent === true) {
        if (a !== undefined) return `${path}.${key}: expected absent, got ${JSON.stringify(a)}`;
        continue;
      }
      const problem = mismatch(value, a, `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${path}: expected ${expected.length} items, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const problem = mismatch(expected[i], actual[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  return expected === actual ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** `{name}` placeholders in strings, anywhere in a value. A string that is exactly `{name}` keeps the variable's type. */
function fill(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole && whole[1] in vars) return vars[whole[1]];
    return value.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}

function pick(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), source);
}

/** A stream connection that queues frames and the close, so steps can wait for them in order. */
class Stream {
  private readonly frames: unknown[] = [];
  private closeCode: number | null = null;
  private wake: (() => void) | null = null;
  readonly socket: WebSocket;

  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.socket.on('message', (data) => {
      try {
        this.frames.push(JSON.parse(String(data)));
      } catch {
        this.frames.push({ notJson: String(data) });
      }
      this.wake?.();
    });
    this.socket.on('close', (code) => {
      this.closeCode = code;
      this.wake?.();
    });
    this.socket.on('error', () => undefined); // a refused connection shows as its close
  }

  async opened(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN) return;
    await new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('close', (code) => reject(new Error(`the stream closed with ${code} before it opened`)));
    });
  }

  /** The next frame that is not a heartbeat (unless a heartbeat is what is expected). */
  async next(wantHeartbeat: boolean, timeoutMs: number): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.frames.length) {
        const frame = this.frames.shift() as { type?: string };
        if (frame?.type !== 'heartbeat' || wantHeartbeat) return frame;
      }
      if (this.closeCode !== null) throw new Error(`the stream closed with ${this.closeCode} while a frame was expected`);
      await this.wait(deadline, 'a frame');
    }
  }

  async closed(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) await this.wait(deadline, 'the close');
    return this.closeCode;
  }

  private wait(deadline: number, what: string): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) return Promise.reject(new Error(`no ${what} within the time allowed`));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wake = null;
        reject(new Error(`no ${what} within the time allowed`));
      }, left);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}

/**
 * Runs one live vector. Each run gets a new chat token (`{token}`, and `{userId}` its SHA-256), so
 * vectors do not see each other's events. Throws an Error naming the step and the mismatch.
 */
export async function runVector(vector: Vector, target: Target): Promise<void> {
  const token = `conf_${randomBytes(12).toString('base64url')}`;
  const vars: Record<string, unknown> = {
    baseUrl: target.url.replace(/\/+$/, ''),
    botId: target.botId,
    token,
    userId: createHash('sha256').update(token).digest('hex'),
    otherToken: `conf_${randomBytes(12).toString('base64url')}`,
  };
  let stream: Stream | null = null;
  try {
    for (const [index, raw] of (vector.steps ?? []).entries()) {
      const step = fill(raw, vars) as Step;
      const where = `${vector.name}, step ${index + 1} (${step.do})`;
      const fail = (problem: string) => new Error(`${where}: ${problem}`);
      if (step.do === 'http') {
        const headers: Record<string, string> = {};
        if (step.body !== undefined) headers['content-type'] = 'application/json';
        if (step.auth === 'chatToken') headers.authorization = `Bearer ${token}`;
        else if (step.auth === 'apiKey') headers.authorization = `Bearer ${target.apiKey}`;
        else if (step.auth) headers.authorization = `Bearer ${step.auth}`;
        const res = await fetch(`${vars.baseUrl}${step.path}`, { method: step.method, headers, body: step.body === undefined ? undefined : JSON.stringify(step.body) });
        const text = await res.text();
        const statuses = Array.isArray(step.expect.status) ? step.expect.status : [step.expect.status];
        if (!statuses.includes(res.status)) throw fail(`expected status ${statuses.join(' or ')}, got ${res.status}: ${text.slice(0, 300)}`);
        const body = text ? JSON.parse(text) : undefined;
        const problem = step.expect.body === undefined ? null : mismatch(step.expect.body, body);
        if (problem) throw fail(problem);
        for (const [name, path] of Object.entries(step.save ?? {})) vars[name] = pick({ body }, path);
        // The same stream address for a session that does not exist, for the 4404 case.
        if (typeof vars.streamUrl === 'string') vars.unknownSessionStreamUrl = vars.streamUrl.replace(/\/sessions\/[^/]+\/stream$/, '/sessions/00000000-0000-4000-8000-000000000000/stream');
      } else if (step.do === 'ws.open') {
        stream?.socket.terminate();
        stream = new Stream(step.url);
        await stream.opened().catch((err: Error) => Promise.reject(fail(err.message)));
      } else if (step.do === 'ws.send') {
        if (!stream) throw fail('no stream is open');
        stream.socket.send(JSON.stringify(step.frame));
      } else if (step.do === 'ws.expect') {
        if (!stream) throw fail('no stream is open');
        const wantHeartbeat = (step.frame as { type?: unknown })?.type === 'heartbeat';
        const frame = await stream.next(wantHeartbeat, step.timeoutMs ?? 5000).catch((err: Error) => Promise.reject(fail(err.message)));
        const problem = mismatch(step.frame, frame);
        if (problem) throw fail(problem);
        for (const [name, path] of Object.entries(step.save ?? {})) vars[name] = pick({ frame }, path);
      } else if (step.do === 'ws.expectClose') {
        if (!stream) throw fail('no stream is open');
        const code = await stream.closed(step.timeoutMs ?? 5000).catch((err: Error) => Promise.reject(fail(err.message)));
        if (code !== step.code) throw fail(`expected close code ${step.code}, got ${code}`);
      } else if (step.do === 'ws.close') {
        stream?.socket.close(1000);
        if (stream) await stream.closed(5000).catch(() => undefined);
        stream = null;
      } else {
        throw fail(`unknown step ${JSON.stringify(raw)}`);
      }
    }
  } finally {
    stream?.socket.terminate();
  }
}
