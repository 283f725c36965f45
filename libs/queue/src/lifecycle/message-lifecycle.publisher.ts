import { Inject, Injectable, Logger } from '@nestjs/common';
import { CoreEnv, LifecycleStreamEnv } from '@platform/config';
import { CallbackJob, MessageStatusChange, lifecycleStreamFields, postbackBody, postbackId } from '@platform/contracts';
import { REQUEST_REDIS } from '../queue.module.js';
import { CallbackQueue } from '../producer-queues.js';
import { type RedisClient, withTimeout } from '../redis-connections.js';
import { lifecycleStreamKey } from '../redis-keys.js';

/**
 * Publishes message status changes: each one is appended to the lifecycle stream and, when the message
 * has a postback URL (its trigger's or its bot's), queued as a postback. Changes submitted in one
 * event-loop turn share one round trip to Redis (the XADDs and the job adds are pipelined), so the
 * dispatch hot path pays one write per turn, not one per message.
 */
@Injectable()
export class MessageLifecyclePublisher {
  private readonly logger = new Logger('MessageLifecycle');
  private pending: MessageStatusChange[] = [];
  private waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly queue: CallbackQueue,
    private readonly env: LifecycleStreamEnv,
    private readonly core: CoreEnv,
  ) {}

  /**
   * Resolves once the changes are in Redis. Never rejects: the status itself is already committed in
   * Postgres, and a caller must not redo its work because a report of it could not be queued.
   */
  publish(changes: ReadonlyArray<MessageStatusChange | null>): Promise<void> {
    const real = changes.filter((c): c is MessageStatusChange => c !== null);
    if (real.length === 0) return Promise.resolve();
    this.pending.push(...real);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return done.catch((err: unknown) => {
      this.logger.error(`${real.length} status change(s) not published (stream and postbacks): ${(err as Error)?.message ?? err}`);
    });
  }

  private flush(): void {
    const [changes, waiters] = [this.pending, this.waiters];
    this.pending = [];
    this.waiters = [];
    this.scheduled = false;
    this.write(changes).then(
      () => waiters.forEach((w) => w.resolve()),
      (err: unknown) => waiters.forEach((w) => w.reject(err)),
    );
  }

  private async write(changes: MessageStatusChange[]): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const change of changes) {
      pipeline.xadd(lifecycleStreamKey(this.core), 'MAXLEN', '~', this.env.LIFECYCLE_STREAM_MAXLEN, '*', ...lifecycleStreamFields(change));
    }
    const jobs = changes
      .filter((c) => c.postbackUrl)
      .map((c) => {
        const data: CallbackJob = {
          id: postbackId(c.messageId, c.status),
          botId: c.botId,
          kind: 'postback',
          event: 'message.status',
          messageId: c.messageId,
          status: c.status,
          url: c.postbackUrl!,
          body: JSON.stringify(postbackBody(c)),
        };
        return { name: 'deliver' as const, data, opts: { jobId: data.id } };
      });
    const written = Promise.all([pipeline.exec(), jobs.length > 0 ? this.queue.addBulk(jobs) : undefined]);
    const [results] = await withTimeout(written, this.core.REDIS_COMMAND_TIMEOUT_MS, 'publishing message status changes');
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }
}
