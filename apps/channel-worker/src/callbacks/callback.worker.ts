import { Injectable } from '@nestjs/common';
import { DelayedError } from 'bullmq';
import { CallbackEnv, CoreEnv } from '@platform/config';
import { CallbackQueueNames, isOrderedCallback } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { CallbackSender } from './callback-sender.js';
import { MessageDeliveryOrder } from './message-delivery-order.js';

type CallbackQueueJob = QueueJob<typeof CallbackQueueNames.callback>;

/** How long a conversation's message waits before it looks again whether the earlier one was taken. */
const ORDER_WAIT_MS = 1000;

/**
 * Sends every callback: webhook calls to bots and message status postbacks. It runs in the channel
 * worker, the process that already makes the platform's outbound calls and scales with message volume
 * (`--scale channel-worker`), so the gateway's request latency never shares a process with slow or
 * failing receivers. A user's messages reach the bot in their conversation's order: one waits (without
 * using an attempt) until the one before it was answered 2xx or given up.
 */
@Injectable()
export class CallbackWorker extends WorkerBase<typeof CallbackQueueNames.callback> {
  constructor(
    core: CoreEnv,
    env: CallbackEnv,
    private readonly sender: CallbackSender,
    private readonly order: MessageDeliveryOrder,
  ) {
    super({
      queue: CallbackQueueNames.callback,
      redis: core,
      connectionName: 'channel-worker-callbacks',
      logName: 'CallbackWorker',
      concurrency: env.CALLBACK_CONCURRENCY,
      // Given up: the conversation's next message may go.
      giveUp: async (job) => {
        if (job.name === 'deliver' && isOrderedCallback(job.data)) await this.order.release(job.data.id);
      },
    });
  }

  protected async process(job: CallbackQueueJob, token?: string): Promise<unknown> {
    switch (job.name) {
      case 'replay':
        return this.sender.send(job.data, true); // an administrator's re-send: the order was settled long ago
      case 'deliver': {
        if (!isOrderedCallback(job.data)) return this.sender.send(job.data);
        const turn = await this.order.turn(job.data.id);
        if (turn === 'erased') return 'erased';
        if (turn === 'wait') {
          await job.moveToDelayed(Date.now() + ORDER_WAIT_MS, token);
          throw new DelayedError(); // not an attempt: the message waits its turn
        }
        const result = await this.sender.send(job.data);
        await this.order.release(job.data.id);
        return result;
      }
    }
  }
}
