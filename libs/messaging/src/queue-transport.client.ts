import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { Queue, QueueEvents } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { countConsumers } from './consumer-registry.js';
import { decodeFailure } from './failure-reason.js';
import { NoConsumerError } from './no-consumer.error.js';
import { QueuedRequest, QueuedRequestOptions } from './queued-request.js';
import { RequestTimeoutError } from './request-timeout.error.js';
import type { RequestJobData, RequestJobResult } from './request-job.js';
import { TransportUnavailableError } from './transport-unavailable.error.js';

export interface QueueTransportClientOptions {
  queueName: string;
  /** Connection for queueing and checks: it must fail fast while Redis is down (no offline queue). */
  redis: Redis | Cluster;
  /** Opens the dedicated connection that reads the queue's events (answers arrive there; blocking reads). */
  connect: (connectionName: string, purpose: 'blocking') => Redis | Cluster;
  /** BullMQ's key prefix of the queue (default `bull`); on a cluster, a hash tag. */
  prefix?: string;
  /** Prepended to the transport's own keys (the consumer set). */
  keyPrefix?: string;
  /** How long a caller waits for an answer, unless a request says otherwise. */
  timeoutMs: number;
  /** Bound on each Redis command of a call (queueing, the consumer check). */
  commandTimeoutMs: number;
  /** How long the answer of a request with a given jobId is kept for a repeat (default 24 h). */
  keepAnswerMs?: number;
  /** How long a seen consumer is trusted before Redis is asked again (default 1 s). */
  consumerCheckMs?: number;
}

type Settle = (packet: WritePacket) => void;

/**
 * Nest ClientProxy of QueueTransportServer: `send` queues a request job (its deadline in the job) and
 * resolves with the answer the consumer's handler returned, read from the queue's event stream; `emit`
 * queues an event job and resolves once it is in Redis. Before queueing a request it checks (at most
 * every `consumerCheckMs`) that a consumer listens, and fails with NoConsumerError at once when none
 * does. Errors: NoConsumerError, TransportUnavailableError (nothing queued), RequestTimeoutError (the
 * waiting job is withdrawn; a consumer that takes it later drops it), or the handler's error value.
 */
export class QueueTransportClient extends ClientProxy {
  private readonly queue: Queue<RequestJobData, RequestJobResult>;
  private events?: QueueEvents;
  private eventsConnection?: Redis | Cluster;
  private connecting?: Promise<void>;
  private readonly waiters = new Map<string, Set<Settle>>();
  private consumersSeenUntil = 0;

  constructor(private readonly options: QueueTransportClientOptions) {
    super();
    this.queue = new Queue(options.queueName, { connection: options.redis, ...(options.prefix && { prefix: options.prefix }) });
    this.queue.on('error', () => undefined); // surfaced per call
  }

  /** Starts reading the queue's events (once; again after a failed try). */
  connect(): Promise<void> {
    this.connecting ??= this.open().catch((err: unknown) => {
      this.connecting = undefined;
      throw err instanceof TransportUnavailableError ? err : new TransportUnavailableError(err);
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    const [events, connection] = [this.events, this.eventsConnection];
    this.events = this.eventsConnection = undefined;
    this.connecting = undefined;
    await events?.close().catch(() => undefined);
    await connection?.quit().catch(() => connection.disconnect()); // BullMQ leaves a passed-in connection open
    await this.queue.close().catch(() => undefined);
  }

  unwrap<T>(): T {
    return this.queue as T;
  }

  protected publish(packet: ReadPacket, callback: Settle): () => void {
    const { data, options } = unwrapRequest(packet.data);
    const pattern = this.normalizePattern(packet.pattern);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const jobId = options.jobId ?? randomUUID();
    const deadline = Date.now() + timeoutMs;
    let done = false;
    const settle: Settle = (answer) => {
      if (done) return;
      done = true;
      teardown();
      callback(answer);
    };
    const timer = setTimeout(() => {
      settle({ err: new RequestTimeoutError(pattern, timeoutMs) });
      void this.withdraw(jobId);
    }, timeoutMs);
    const teardown = () => {
      done = true;
      clearTimeout(timer);
      const set = this.waiters.get(jobId);
      set?.delete(settle);
      if (set?.size === 0) this.waiters.delete(jobId);
    };
    // Listening before the job exists, so even an instant answer is heard.
    const set = this.waiters.get(jobId) ?? new Set<Settle>();
    set.add(settle);
    this.waiters.set(jobId, set);
    this.enqueue(pattern, data, jobId, deadline, options).then(
      (earlier) => earlier && settle(earlier),
      (err: unknown) => settle({ err }),
    );
    return teardown;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const { data, options } = unwrapRequest(packet.data);
    const job: RequestJobData = { data, deadline: null };
    await this.bounded(this.queue.add(this.normalizePattern(packet.pattern), job, { jobId: options.jobId, removeOnComplete: true, removeOnFail: true }), 'queueing the event');
    return undefined as T;
  }

  private async open(): Promise<void> {
    // Read from the stream's current end: events written before this point concern no caller here.
    const last = await this.bounded(this.options.redis.xrevrange(this.queue.keys.events, '+', '-', 'COUNT', 1), 'reading the request queue');
    const connection = this.options.connect(`${this.options.queueName}-replies`, 'blocking');
    connection.on('error', () => undefined);
    const events = new QueueEvents(this.options.queueName, {
      connection,
      ...(this.options.prefix && { prefix: this.options.prefix }),
      lastEventId: last[0]?.[0] ?? '0-0',
    });
    events.on('error', () => undefined); // reconnects by itself; callers waiting meanwhile time out
    events.on('completed', ({ jobId, returnvalue }) => this.settle(jobId, { response: (returnvalue as unknown as RequestJobResult | null)?.response, isDisposed: true }));
    events.on('failed', ({ jobId, failedReason }) => this.settle(jobId, { err: decodeFailure(failedReason) }));
    try {
      await this.bounded(events.waitUntilReady(), 'connecting to the request queue');
    } catch (err) {
      await events.close().catch(() => undefined);
      connection.disconnect();
      throw err;
    }
    this.events = events;
    this.eventsConnection = connection;
  }

  private settle(jobId: string, answer: WritePacket): void {
    const set = this.waiters.get(jobId);
    if (!set) return;
    for (const settle of [...set]) settle(answer);
  }

  /** Queues the request; for a repeated jobId, the answer already kept when its first request has finished. */
  private async enqueue(pattern: string, data: unknown, jobId: string, deadline: number, options: QueuedRequestOptions): Promise<WritePacket | undefined> {
    await this.ensureConsumer();
    const keepAnswerMs = options.keepAnswerMs ?? this.options.keepAnswerMs ?? 24 * 3600_000;
    const job: RequestJobData = { data, deadline };
    // An error answer fails the job, which goes at once: nothing was done, so the same id may run again.
    await this.bounded(this.queue.add(pattern, job, { jobId, removeOnComplete: options.jobId ? { age: Math.ceil(keepAnswerMs / 1000) } : true, removeOnFail: true }), 'queueing the request');
    if (options.jobId === undefined) return undefined;
    const existing = await this.bounded(this.queue.getJob(jobId), 'reading the request');
    if (existing?.finishedOn && !existing.failedReason && existing.returnvalue) return { response: existing.returnvalue.response, isDisposed: true };
    return undefined;
  }

  private async ensureConsumer(): Promise<void> {
    if (this.consumersSeenUntil > Date.now()) return;
    const consumers = await this.bounded(countConsumers(this.options.redis, this.options.queueName, this.options.keyPrefix), 'counting the request queue consumers');
    if (consumers === 0) throw new NoConsumerError(this.options.queueName);
    this.consumersSeenUntil = Date.now() + (this.options.consumerCheckMs ?? 1000);
  }

  /** Removes a request whose caller gave up, unless a consumer already holds it (then it is past its deadline there too, or finishing). */
  private async withdraw(jobId: string): Promise<void> {
    try {
      const job = await this.bounded(this.queue.getJob(jobId), 'reading the request');
      if (job && job.data.deadline !== null && job.data.deadline <= Date.now() && (await job.isWaiting())) await job.remove();
    } catch {
      /* the consumer drops it at its deadline anyway */
    }
  }

  private async bounded<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${this.options.commandTimeoutMs} ms`)), this.options.commandTimeoutMs);
    });
    try {
      return await Promise.race([promise, bound]);
    } catch (err) {
      throw new TransportUnavailableError(err);
    } finally {
      clearTimeout(timer);
    }
  }
}

function unwrapRequest(data: unknown): { data: unknown; options: QueuedRequestOptions } {
  return data instanceof QueuedRequest ? { data: data.data, options: data.options } : { data, options: {} };
}
