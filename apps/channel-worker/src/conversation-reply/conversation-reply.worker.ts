import { Injectable } from '@nestjs/common';
import { CoreEnv, JobLockEnv, WorkerEnv } from '@platform/config';
import { ConversationQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { ConversationReplyHandler } from './conversation-reply.handler.js';
import { ReadReceiptHandler } from './read-receipt.handler.js';

/** Runs the BullMQ worker of the conversation-reply queue (bots' answers to WhatsApp users). */
@Injectable()
export class ConversationReplyWorker extends WorkerBase<typeof ConversationQueueNames.conversationReply> {
  constructor(
    core: CoreEnv,
    env: WorkerEnv,
    locks: JobLockEnv,
    private readonly handler: ConversationReplyHandler,
    private readonly receipts: ReadReceiptHandler,
  ) {
    super({
      queue: ConversationQueueNames.conversationReply,
      redis: core,
      connectionName: 'channel-worker-replies',
      logName: 'ConversationReplyWorker',
      concurrency: env.WORKER_CONCURRENCY,
      lock: { durationMs: locks.WORKER_LOCK_MS, maxStalledCount: locks.WORKER_MAX_STALLED_COUNT },
    });
  }

  protected process(job: QueueJob<typeof ConversationQueueNames.conversationReply>, token?: string): Promise<string> {
    if (job.data.kind === 'read') return this.receipts.handle(job.data.messageId);
    return this.handler.handle(job, token);
  }
}
