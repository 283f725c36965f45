import { Injectable } from '@nestjs/common';
import { DelayedError } from 'bullmq';
import { BotRuntimeEnv, CoreEnv, JobLockEnv } from '@platform/config';
import { BotQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { BotTurnService, type TurnSummary } from './bot-turn.service.js';
import { ReplyOrderWaitError } from './reply-order-wait.error.js';

type TurnJob = QueueJob<typeof BotQueueNames.botTurn>;

/** How long a turn waits in the delayed set while an earlier WhatsApp reply of its conversation is still being sent. */
const ORDER_DELAY_MS = 2000;

/** Runs the BullMQ worker of the bot-turn queue: a job wakes the runtime for one conversation. */
@Injectable()
export class BotTurnWorker extends WorkerBase<typeof BotQueueNames.botTurn> {
  constructor(
    core: CoreEnv,
    env: BotRuntimeEnv,
    locks: JobLockEnv,
    private readonly turns: BotTurnService,
  ) {
    super({
      queue: BotQueueNames.botTurn,
      redis: core,
      connectionName: 'bot-runtime-turns',
      logName: 'BotTurnWorker',
      concurrency: env.BOT_RUNTIME_CONCURRENCY,
      lock: { durationMs: locks.WORKER_LOCK_MS, maxStalledCount: locks.WORKER_MAX_STALLED_COUNT },
      giveUp: async (job, err) => {
        // The inputs stay unprocessed: the conversation's next input (its job) takes them again.
        this.logger.error(`conversation ${job.data.conversationId}: turn job ${job.id} failed for good (${(err as Error)?.message ?? err}); its inputs wait for the next one`);
      },
    });
  }

  protected async process(job: TurnJob, token?: string): Promise<TurnSummary> {
    const started = performance.now();
    try {
      const summary = await this.turns.take(job.data);
      const ms = Math.round(performance.now() - started);
      if (!summary.found) this.logger.log(`conversation ${summary.conversationId}: gone (erased); nothing to do`);
      else {
        this.logger.log(
          `conversation ${summary.conversationId}: ${summary.inputs} input(s), ${summary.steps} step(s)${summary.failedSteps ? ` (${summary.failedSteps} failed)` : ''}, ${summary.outputs} output(s), ${summary.handedOver} handed over, ${ms} ms`,
        );
      }
      return summary;
    } catch (err) {
      if (!(err instanceof ReplyOrderWaitError)) throw err;
      // Not a failure: the outbox waits for the reply before it, without using up an attempt.
      this.logger.log(`${err.message}; the turn waits ${ORDER_DELAY_MS} ms`);
      await job.moveToDelayed(Date.now() + ORDER_DELAY_MS, token);
      throw new DelayedError();
    }
  }
}
