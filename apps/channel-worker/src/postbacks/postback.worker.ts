import { Injectable } from '@nestjs/common';
import { CoreEnv, PostbackEnv } from '@platform/config';
import { PostbackQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { PostbackSender } from './postback-sender.js';

/**
 * Sends message status postbacks. It runs in the channel worker: the process that already makes the
 * platform's outbound calls and scales with message volume (`--scale channel-worker`), so the gateway's
 * request latency never shares a process with slow or failing receivers.
 */
@Injectable()
export class PostbackWorker extends WorkerBase<typeof PostbackQueueNames.postback> {
  constructor(
    core: CoreEnv,
    env: PostbackEnv,
    private readonly sender: PostbackSender,
  ) {
    super({
      queue: PostbackQueueNames.postback,
      redis: core,
      connectionName: 'channel-worker-postbacks',
      logName: 'PostbackWorker',
      concurrency: env.POSTBACK_CONCURRENCY,
    });
  }

  protected process(job: QueueJob<typeof PostbackQueueNames.postback>): Promise<unknown> {
    switch (job.name) {
      case 'deliver':
      case 'replay':
        return this.sender.send(job.data);
    }
  }
}
