import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import * as http2 from 'node:http2';
import { Worker } from 'node:worker_threads';
import { PushEnv } from '@platform/config';
import { FcmBody, renderFcmBody } from './fcm-message.js';
import { http2Exchange } from './http2-exchange.js';
import { http2Sessions } from './http2-sessions.js';
import { http2ThreadMain } from './http2-thread.js';
import { TransientPushError } from './transient-push.error.js';

export interface Http2Response {
  status: number;
  headers: { 'retry-after'?: string };
  body: string;
}

/** Requests to many tokens with one body template (a batch of a notification), answered one by one. */
export interface Http2Requests {
  origin: string;
  path: string;
  headers: Record<string, string>;
  timeoutMs: number;
  parts: FcmBody['parts'];
  tokens: readonly string[];
  /** Called once per token: FCM's answer, TransientPushError when FCM could not be reached, or NOT_SENT. */
  onAnswer: (index: number, answer: Http2Response | Error) => void;
  /** Milliseconds to wait before sending more of these (FCM asked to slow down); 0 = go on. */
  holdMs?: () => number;
  /** True: the requests not sent yet are not sent at all (answered NOT_SENT). */
  cancelled?: () => boolean;
}

/** The answer of a request cancelled before it was sent. */
export const NOT_SENT = new Error('not sent: cancelled');

interface Job extends Http2Requests {
  next: number;
  /** Request ids firstId … firstId + tokens.length - 1. */
  firstId: number;
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
 * HTTP/2 to FCM with at most FCM_MAX_IN_FLIGHT requests in flight per process. Requests wait in a
 * queue of jobs (plain arrays, no promise per message) and go out as slots free. Node's HTTP/2 client
 * costs ~70-100 µs of CPU per request, so the streams run on FCM_SENDER_THREADS worker threads (each
 * with its own sessions; requests go round-robin, in one message per thread and event-loop turn);
 * 0 keeps them on the main thread. Cleartext origins (http://) speak h2c with prior knowledge, which
 * is what the loopback FCM servers of tests and the benchmark expect. Each thread opens as many
 * sessions as the server's limit of concurrent streams per connection needs (http2Sessions).
 */
@Injectable()
export class Http2Pool implements OnApplicationShutdown {
  private readonly queue: Job[] = [];
  private readonly inFlight = new Map<number, Job>();
  private nextId = 1;
  private pumping = false;
  private wakeTimer?: NodeJS.Timeout;
  private readonly sessions = http2Sessions(http2);
  private readonly threads: Worker[] = [];
  /** Per thread: requests of this turn, grouped by job. */
  private readonly outboxes: Array<Map<Job, Group>> = [];
  private nextThread = 0;
  private flushScheduled = false;
  private closed = false;

  constructor(private readonly env: PushEnv) {}

  /** One request: FCM's answer; rejects with TransientPushError when FCM could not be reached. */
  post(origin: string, path: string, headers: Record<string, string>, body: FcmBody, timeoutMs: number): Promise<Http2Response> {
    return new Promise((resolve, reject) =>
      this.postMany({ origin, path, headers, timeoutMs, parts: body.parts, tokens: [body.token], onAnswer: (_, a) => (a instanceof Error ? reject(a) : resolve(a)) }),
    );
  }

  postMany(requests: Http2Requests): void {
    if (this.closed) {
      const error = new TransientPushError('push service shutting down');
      return requests.tokens.forEach((_, i) => requests.onAnswer(i, error));
    }
    this.queue.push({ ...requests, next: 0, firstId: this.nextId });
    this.nextId += requests.tokens.length;
    this.pump();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true; // a batch still running gets answers instead of new threads nobody ends
    clearTimeout(this.wakeTimer);
    this.sessions.closeAll();
    await Promise.all(this.threads.map((t) => t.terminate()));
    this.threads.length = 0;
    this.outboxes.length = 0; // a flush already scheduled then finds nothing to post to the ended threads
    this.failAll('push service shutting down');
  }

  /** Sends queued requests while slots are free, jobs in arrival order; a held job lets the others pass. */
  private pump(): void {
    if (this.pumping) return; // an answer given while pumping queued more: this loop sends it
    this.pumping = true;
    try {
      for (let j = 0; j < this.queue.length && this.inFlight.size < this.env.FCM_MAX_IN_FLIGHT;) {
        const job = this.queue[j];
        const hold = job.holdMs?.() ?? 0;
        if (hold > 0) {
          this.wakeIn(hold);
          j++;
          continue;
        }
        while (job.next < job.tokens.length && this.inFlight.size < this.env.FCM_MAX_IN_FLIGHT) this.dispatch(job, job.next++);
        if (job.next === job.tokens.length) this.queue.splice(j, 1);
      }
    } finally {
      this.pumping = false;
    }
  }

  private wakeIn(ms: number): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, ms);
  }

  private dispatch(job: Job, index: number): void {
    if (job.cancelled?.()) return job.onAnswer(index, NOT_SENT);
    const id = job.firstId + index;
    this.inFlight.set(id, job);
    if (this.env.FCM_SENDER_THREADS === 0) return this.inProcess(job, id, renderFcmBody({ parts: job.parts, token: job.tokens[index] }));
    this.startThreads();
    const box = this.outboxes[this.nextThread];
    this.nextThread = (this.nextThread + 1) % this.threads.length;
    let group = box.get(job);
    if (!group) box.set(job, (group = { origin: job.origin, path: job.path, headers: job.headers, timeoutMs: job.timeoutMs, parts: job.parts, reqs: [] }));
    group.reqs.push(id, job.tokens[index]);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private answer(id: number, answer: Http2Response | Error): void {
    const job = this.inFlight.get(id);
    if (!job) return;
    this.inFlight.delete(id);
    job.onAnswer(id - job.firstId, answer);
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
      const thread = new Worker(`(${http2ThreadMain.toString()})(${http2Sessions.toString()}, ${http2Exchange.toString()})`, { eval: true, name: `fcm-http2-${i}` });
      thread.on('message', (answers: Array<string | number | null>) => {
        for (let j = 0; j < answers.length; j += 5) {
          this.answer(answers[j] as number, toResponse(answers[j + 1] as number, answers[j + 2] as string | null, answers[j + 3] as string | null, answers[j + 4] as string | null));
        }
        this.pump();
      });
      thread.on('error', (err) => {
        void Promise.all(this.threads.map((t) => t.terminate()));
        this.threads.length = 0;
        this.outboxes.length = 0;
        this.failAll(`FCM sender thread failed: ${err.message}`);
      });
      this.threads.push(thread);
      this.outboxes.push(new Map());
    }
  }

  /** Answers every request in flight or queued with an error. */
  private failAll(reason: string): void {
    const error = new TransientPushError(reason);
    for (const id of [...this.inFlight.keys()]) this.answer(id, error);
    for (const job of this.queue.splice(0)) while (job.next < job.tokens.length) job.onAnswer(job.next++, error);
  }

  private inProcess(job: Job, id: number, body: string): void {
    const open = http2Exchange(this.sessions, job.origin, { ':method': 'POST', ':path': job.path, ...job.headers }, body, (status, retryAfter, answerBody, error) => {
      this.answer(id, toResponse(status, retryAfter, answerBody, error));
      this.pump();
    });
    open?.stream.setTimeout(job.timeoutMs, () => {
      open.fail(`no answer within ${job.timeoutMs} ms`);
      open.stream.close(http2.constants.NGHTTP2_CANCEL);
    });
  }
}

/** A request's end as the pool answers it: FCM's response, or TransientPushError when there was none. */
function toResponse(status: number, retryAfter: string | null, body: string | null, error: string | null): Http2Response | TransientPushError {
  if (error !== null) return new TransientPushError(`FCM unreachable: ${error}`);
  return { status, headers: retryAfter !== null ? { 'retry-after': retryAfter } : {}, body: body ?? '' };
}
