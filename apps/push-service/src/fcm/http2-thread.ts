import type { http2Exchange } from './http2-exchange.js';
import type { http2Sessions } from './http2-sessions.js';

/**
 * Body of an HTTP/2 sender thread, started with `new Worker(source, { eval: true })` so that the
 * same code runs from dist and under Jest (which cannot start a worker from a .ts file). It must be
 * self-contained: node built-ins through require, nothing from the enclosing module; the source of
 * http2Sessions and http2Exchange come in as its arguments.
 *
 * In: arrays of groups `{ origin, path, headers, timeoutMs, parts: [before, after], reqs: [id, token, id, token, ...] }`;
 * the body of a request is before + JSON(token) + after (flat arrays clone cheaply); `{ close: true }` ends it.
 * Out: one flat array per event-loop turn: `[id, status, retryAfter, body, error, id, ...]`.
 * Timeouts are checked by one sweep every 100 ms rather than a timer per stream (cheaper per request).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export function http2ThreadMain(sessionsOf: typeof http2Sessions, exchange: typeof http2Exchange): void {
  const { parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  const http2 = require('node:http2') as typeof import('node:http2');
  type Stream = import('node:http2').ClientHttp2Stream;
  const sessions = sessionsOf(http2);
  /** Open streams and when they time out. */
  const deadlines = new Map<Stream, { at: number; timeoutMs: number; fail: (error: string) => void }>();
  let outbox: unknown[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = outbox;
    outbox = [];
    parentPort!.postMessage(batch);
  };
  const answer = (id: number, status: number, retryAfter: string | null, body: string | null, error: string | null) => {
    outbox.push(id, status, retryAfter, body, error);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  setInterval(() => {
    const now = Date.now();
    for (const [stream, d] of deadlines) {
      if (d.at > now) continue;
      d.fail(`no answer within ${d.timeoutMs} ms`);
      stream.close(http2.constants.NGHTTP2_CANCEL);
    }
  }, 100).unref();
  const send = (origin: string, headers: Record<string, string>, timeoutMs: number, id: number, body: string) => {
    let open: ReturnType<typeof exchange> = undefined; // the callback may run before exchange returns
    open = exchange(sessions, origin, headers, body, (status, retryAfter, answerBody, error) => {
      if (open) deadlines.delete(open.stream);
      answer(id, status, retryAfter, answerBody, error);
    });
    if (open) deadlines.set(open.stream, { at: Date.now() + timeoutMs, timeoutMs, fail: open.fail });
  };
  parentPort!.on('message', (msg: unknown) => {
    if (Array.isArray(msg)) {
      for (const g of msg as Array<{ origin: string; path: string; headers: Record<string, string>; timeoutMs: number; parts: [string, string]; reqs: Array<number | string> }>) {
        const headers = { ':method': 'POST', ':path': g.path, ...g.headers }; // one object for the group's streams
        for (let i = 0; i < g.reqs.length; i += 2) {
          send(g.origin, headers, g.timeoutMs, g.reqs[i] as number, g.parts[0] + JSON.stringify(g.reqs[i + 1]) + g.parts[1]);
        }
      }
      return;
    }
    sessions.closeAll();
    parentPort!.close();
  });
}
