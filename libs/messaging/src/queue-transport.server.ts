import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, MessageHandler, Server, WritePacket } from '@nestjs/microservices';
import { Job, Worker } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { queueWorkerLiveness } from '@platform/queue';
import { registerConsumer, unregisterConsumer } from './consumer-registry.js';
import { HandlerFailureError } from './handler-failure.error.js';
import { QueueTransportContext } from './queue-transport.context.js';
import { RequestExpiredError } from './request-expired.error.js';
import type { RequestJobData, RequestJobResult } from './request-job.js';

export interface QueueTransportServerOptions {
  queueName: string;
  /**
   * Opens a connection of the transport's own to the platform's Redis (one server or a cluster) under a
   * CLIENT SETNAME: `blocking` for its worker (retries without end, as BullMQ requires), `commands` for
   * its heartbeats (fails a command soon while Redis is down).
   */
  connect: (connectionName: string, purpose: 'blocking' | 'commands') => Redis | Cluster;
  /** BullMQ's key prefix of the queue (default `bull`); on a cluster, a hash tag. */
  prefix?: string;
  /** Prepended to the transport's own keys (the consumer set). */
  keyPrefix?: string;
  /** Requests one process handles at once (they mostly wait on Postgres). */
  concurrency?: number;
  /** How often the consumer says it is listening, and how long one beat counts. */
  heartbeatMs?: number;
  consumerTtlMs?: number;
  connectionName?: string;
}

type Events = { error: (err: Error) => void; failed: (job: Job | undefined, err: Error) => void };

/**
 * Nest microservice transport whose requests are jobs on one BullMQ queue. Every replica runs a
 * Worker on that queue: the workers compete, so each request reaches one replica, and a replica that
 * dies mid-request leaves its job to BullMQ's stalled-job check. `@MessagePattern` handlers answer
 * through the job's return value (an error answer fails the job, see encodeFailure); `@EventPattern`
 * handlers get jobs nobody waits on. A request taken after its caller's deadline is dropped, its
 * handler not run.
 */
export class QueueTransportServer extends Server<Events> implements CustomTransportStrategy {
  readonly consumerId = randomUUID();
  protected override readonly logger = new Logger('QueueTransport');
  private worker?: Worker<RequestJobData, RequestJobResult>;
  private redis?: Redis | Cluster;
  private workerConnection?: Redis | Cluster;
  private heartbeat?: NodeJS.Timeout;
  private unlist?: () => void;

  constructor(private readonly options: QueueTransportServerOptions) {
    super();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    const { queueName, connect, prefix, keyPrefix = '', concurrency = 32, heartbeatMs = 1000, consumerTtlMs = 3000, connectionName = `${queueName}-consumer` } = this.options;
    try {
      this.redis = connect(connectionName, 'commands');
      this.redis.on('error', () => undefined); // a failed beat is retried on the next one
      this.workerConnection = connect(connectionName, 'blocking');
      this.worker = new Worker<RequestJobData, RequestJobResult>(queueName, (job) => this.process(job), {
        connection: this.workerConnection,
        ...(prefix && { prefix }),
        concurrency,
      });
      this.worker.on('error', (err) => this.logger.error(`${queueName} consumer: ${err.message}`));
      // A consumer whose loop ended takes no more requests: the process's /health says so.
      const worker = this.worker;
      this.unlist = queueWorkerLiveness.add(queueName, () => worker.isRunning());
      await this.worker.waitUntilReady();
      // Said only once the worker takes jobs, so a caller that sees this consumer is served.
      const beat = () => registerConsumer(this.redis!, queueName, this.consumerId, consumerTtlMs, keyPrefix).catch(() => undefined);
      await beat();
      this.heartbeat = setInterval(() => void beat(), heartbeatMs);
      this.heartbeat.unref();
      callback();
    } catch (err) {
      callback(err);
    }
  }

  /** Stops saying it listens first, so callers stop queueing here; then lets the requests under way finish. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.unlist?.();
    if (this.redis) await unregisterConsumer(this.redis, this.options.queueName, this.consumerId, this.options.keyPrefix).catch(() => undefined);
    await this.worker?.close();
    await this.workerConnection?.quit().catch(() => this.workerConnection?.disconnect()); // BullMQ leaves a passed-in connection open
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  on<K extends keyof Events>(event: K, callback: Events[K]): void {
    this.worker?.on(event, callback as never);
  }

  unwrap<T>(): T {
    if (!this.worker) throw new Error('Not initialized. Please call the "listen" method first.');
    return this.worker as T;
  }

  /** Runs one job: drops it past its deadline, else hands it to the handler of its pattern. */
  private async process(job: Job<RequestJobData, RequestJobResult>): Promise<RequestJobResult> {
    const { data, deadline } = job.data;
    if (deadline !== null && Date.now() >= deadline) {
      const err = new RequestExpiredError(job.name, Date.now() - deadline);
      this.logger.warn(`request ${job.id} ${err.message}`);
      throw err;
    }
    const handler = this.getHandlerByPattern(job.name);
    const context = new QueueTransportContext([job]);
    if (!handler) {
      if (deadline === null) {
        this.logger.error(`No event handler for ${job.name}`);
        return { response: undefined };
      }
      throw new HandlerFailureError({ status: 'error', message: `There is no matching message handler defined in the remote service (${job.name}).` });
    }
    if (handler.isEventHandler) {
      await this.handleEvent(job.name, { pattern: job.name, data }, context);
      return { response: undefined };
    }
    return this.answer(handler, data, context);
  }

  /** The handler's last value as the job's result, or its error as the job's failure. */
  private answer(handler: MessageHandler, data: unknown, context: QueueTransportContext): Promise<RequestJobResult> {
    return new Promise((resolve, reject) => {
      let last: unknown;
      const respond = (packet: WritePacket) => {
        if ('err' in packet && packet.err !== undefined) reject(new HandlerFailureError(packet.err));
        else if (packet.isDisposed) resolve({ response: packet.response !== undefined ? packet.response : last });
        else last = packet.response;
      };
      const produce = async () => this.transformToObservable(await handler(data, context));
      Promise.resolve(this.handleRequest(context, produce, respond) as unknown).catch(() => reject(new HandlerFailureError({ status: 'error', message: 'Internal server error' })));
    });
  }
}
