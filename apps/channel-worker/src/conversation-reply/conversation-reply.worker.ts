import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'bullmq';
import { PlatformEnv } from '@platform/config';
import { ConversationQueueNames, ConversationReplyJob } from '@platform/contracts';
import { createWorkerRedis } from '@platform/queue';
import { ConversationReplyHandler } from './conversation-reply.handler.js';

/** Runs the BullMQ worker of the conversation-reply queue (bots' answers to WhatsApp users). */
@Injectable()
export class ConversationReplyWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ConversationReplyWorker');
  private worker?: Worker<ConversationReplyJob>;
  private connection?: ReturnType<typeof createWorkerRedis>;

  constructor(
    private readonly env: PlatformEnv,
    private readonly handler: ConversationReplyHandler,
  ) {}

  onApplicationBootstrap() {
    this.worker = new Worker<ConversationReplyJob>(ConversationQueueNames.conversationReply, (job) => this.handler.handle(job), {
      connection: (this.connection = createWorkerRedis(this.env.REDIS_URL, 'channel-worker-replies')),
      concurrency: this.env.WORKER_CONCURRENCY,
      lockDuration: this.env.WORKER_LOCK_MS,
      stalledInterval: Math.max(500, Math.floor(this.env.WORKER_LOCK_MS / 2)),
      maxStalledCount: this.env.WORKER_MAX_STALLED_COUNT,
    });
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
  }

  async onApplicationShutdown() {
    await this.worker?.close();
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
