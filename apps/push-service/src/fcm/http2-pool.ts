import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ClientHttp2Session, connect, constants } from 'node:http2';
import { Worker } from 'node:worker_threads';
import { PlatformEnv } from '@platform/config';
import { FcmBody, renderFcmBody } from './fcm-message.js';
import { http2ThreadMain } from './http2-thread.js';
import { TransientPushError } from './push-errors.js';
import { Semaphore } from './semaphore.js';

export interface Http2Response {
  status: number;
  headers: { 'retry-after'?: string };
  body: string;
}

interface Pending {
  resolve: (r: Http2Response) => void;
  reject: (e: Error) => void;
}

interface Group {
  origin: string;
  path: string;
  headers: Record<string, string>;
  timeoutMs: number;
  parts: readonly [string, string];
  reqs: Array<number | string>;
}

/**
 * HTTP/2 to FCM: one session per origin, reused (reopened when the server closes it), and at most
 * FCM_MAX_IN_FLIGHT requests in flight per process. Node's HTTP/2 client costs ~70 µs of CPU per
 * request, which caps one thread near 10,000 messages/s, so the streams run on FCM_SENDER_THREADS
 * worker threads (each with its own session; requests go round-robin, in one message per event-loop
 * turn); 0 keeps them on the main thread. Cleartext origins (http://) speak h2c with prior
 * knowledge, which is what the loopback FCM server of tests and the benchmark expects.
 */
@Injectable()
export class Http2Pool implements OnApplicationShutdown {
  private readonly slots: Semaphore;
  private readonly sessions = new Map<string, ClientHttp2Session>();
  private readonly threads: Worker[] = [];
  /** Per thread: requests of this turn, grouped by origin and headers (one access token per bot). */
  private readonly outboxes: Array<Map<string, Group>> = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextThread = 0;
  private readonly templateIds = new WeakMap<object, number>();
  private nextTemplateId = 1;
  private flushScheduled = false;

  constructor(private readonly env: PlatformEnv) {
    this.slots = new Semaphore(env.FCM_MAX_IN_FLIGHT);
  }

  async post(origin: string, path: string, headers: Record<string, string>, body: FcmBody, timeoutMs: number): Promise<Http2Response> {
    await this.slots.acquire();
    try {
      return await (this.env.FCM_SENDER_THREADS > 0
        ? this.viaThread(origin, path, headers, body, timeoutMs)
        : this.inProcess(origin, path, headers, renderFcmBody(body), timeoutMs));
    } finally {
      this.slots.release();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
    await Promise.all(this.threads.map((t) => t.terminate()));
    this.threads.length = 0;
    for (const p of this.pending.values()) p.reject(new TransientPushError('push service shutting down'));
    this.pending.clear();
  }

  private viaThread(origin: string, path: string, headers: Record<string, string>, body: FcmBody, timeoutMs: number): Promise<Http2Response> {
    this.startThreads();
    const id = this.nextId++;
    const promise = new Promise<Http2Response>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    const box = this.outboxes[this.nextThread];
    const key = `${origin}${path}\n${headers.authorization ?? ''}\n${timeoutMs}\n${this.templateId(body.parts)}`;
    let group = box.get(key);
    if (!group) box.set(key, (group = { origin, path, headers, timeoutMs, parts: body.parts, reqs: [] }));
    group.reqs.push(id, body.token);
    this.nextThread = (this.nextThread + 1) % this.threads.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return promise;
  }

  private templateId(parts: readonly [string, string]): number {
    let id = this.templateIds.get(parts);
    if (id === undefined) this.templateIds.set(parts, (id = this.nextTemplateId++));
    return id;
  }

  private flush(): void {
    this.flushScheduled = false;
    this.outboxes.forEach((box, i) => {
      if (box.size === 0) return;
      this.threads[i].postMessage([...box.values()]);
      box.clear();
    });
  }

  private startThreads(): void {
    if (this.threads.length > 0) return;
    for (let i = 0; i < this.env.FCM_SENDER_THREADS; i++) {
      const thread = new Worker(`(${http2ThreadMain.toString()})()`, { eval: true, name: `fcm-http2-${i}` });
      thread.on('message', (answers: Array<string | number | null>) => {
        for (let j = 0; j < answers.length; j += 5) {
          this.settle(answers[j] as number, answers[j + 1] as number, answers[j + 2] as string | null, answers[j + 3] as string | null, answers[j + 4] as string | null);
        }
      });
      thread.on('error', (err) => this.failAll(`FCM sender thread failed: ${err.message}`));
      this.threads.push(thread);
      this.outboxes.push(new Map());
    }
  }

  private settle(id: number, status: number, retryAfter: string | null, body: string | null, error: string | null): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error !== null) p.reject(new TransientPushError(`FCM unreachable: ${error}`));
    else p.resolve({ status, headers: retryAfter !== null ? { 'retry-after': retryAfter } : {}, body: body ?? '' });
  }

  private failAll(reason: string): void {
    for (const p of this.pending.values()) p.reject(new TransientPushError(reason));
    this.pending.clear();
    void Promise.all(this.threads.map((t) => t.terminate()));
    this.threads.length = 0;
    this.outboxes.length = 0;
  }

  private session(origin: string): ClientHttp2Session {
    const existing = this.sessions.get(origin);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = connect(origin);
    const drop = () => {
      if (this.sessions.get(origin) === session) this.sessions.delete(origin);
    };
    session.on('error', drop); // each stream reports the failure to its caller
    session.on('goaway', drop);
    session.on('close', drop);
    this.sessions.set(origin, session);
    return session;
  }

  private inProcess(origin: string, path: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Http2Response> {
    return new Promise((resolve, reject) => {
      let stream;
      try {
        stream = this.session(origin).request({ ':method': 'POST', ':path': path, ...headers });
      } catch (err) {
        return reject(new TransientPushError(`FCM unreachable: ${(err as Error).message}`));
      }
      let status = 0;
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      let ended = false;
      stream.on('response', (h) => {
        status = Number(h[':status']);
        const ra = h['retry-after'];
        retryAfter = Array.isArray(ra) ? ra[0] : ra;
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        ended = true;
        resolve({ status, headers: retryAfter !== undefined ? { 'retry-after': retryAfter } : {}, body: Buffer.concat(chunks).toString('utf8') });
      });
      stream.on('error', (err: Error & { code?: string }) => reject(new TransientPushError(`FCM unreachable: ${err.code ?? err.message}`)));
      stream.on('close', () => {
        if (!ended) reject(new TransientPushError(`FCM closed the stream (code ${stream.rstCode})`));
      });
      stream.setTimeout(timeoutMs, () => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new TransientPushError(`FCM did not answer within ${timeoutMs} ms`));
      });
      stream.end(body);
    });
  }
}
