import type { ClientHttp2Stream, OutgoingHttpHeaders } from 'node:http2';
import type { Http2Sessions } from './http2-sessions.js';

/** How one request ended: the status and body FCM sent, or why there was no answer (`error` set). */
export type Http2Outcome = (status: number, retryAfter: string | null, body: string | null, error: string | null) => void;

/** An open request: its stream, and a way to end it without an answer (a timeout) that reports once. */
export interface Http2Exchange {
  stream: ClientHttp2Stream;
  fail(error: string): void;
}

/**
 * One POST on a pooled HTTP/2 session: sends `body`, gathers the answer and reports it to `done`
 * exactly once, whatever mix of end, error and close events the stream gives. Undefined when no
 * stream could be opened (already reported). Timeouts are the caller's: the sender threads sweep
 * their deadlines in one timer, the main thread sets one per stream.
 *
 * Self-contained (nothing from this module's scope) because the sender threads run its source:
 * see http2ThreadMain.
 */
export function http2Exchange(sessions: Http2Sessions, origin: string, headers: OutgoingHttpHeaders, body: string, done: Http2Outcome): Http2Exchange | undefined {
  let stream: ClientHttp2Stream;
  try {
    stream = sessions.request(origin, headers);
  } catch (err) {
    done(0, null, null, (err as Error).message);
    return undefined;
  }
  let status = 0;
  let retryAfter: string | null = null;
  const chunks: Buffer[] = [];
  let finished = false;
  const finish = (answer: string | null, error: string | null) => {
    if (finished) return;
    finished = true;
    done(status, retryAfter, answer, error);
  };
  stream.on('response', (h) => {
    status = Number(h[':status']);
    const ra = h['retry-after'];
    retryAfter = (Array.isArray(ra) ? ra[0] : ra) ?? null;
  });
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => finish(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'), null));
  stream.on('error', (err: Error & { code?: string }) => finish(null, err.code ?? err.message));
  stream.on('close', () => finish(null, `stream closed (code ${stream.rstCode})`));
  stream.end(body);
  return { stream, fail: (error) => finish(null, error) };
}
