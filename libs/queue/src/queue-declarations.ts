import type { DefaultJobOptions } from 'bullmq';
import { BotRuntimeEnv, CallbackEnv, CoreEnv, PushEnv, WhatsAppRetryEnv } from '@platform/config';
import { BotQueueNames, CampaignQueueNames, CallbackQueueNames, ConversationQueueNames, LegacyCallbackQueueNames, PushQueueNames, QueueNames, type QueueName } from '@platform/contracts';

const DAY_S = 24 * 3600;
const WEEK_S = 7 * DAY_S;

/** One queue's settings: the env class they are read from and the options every job of the queue gets. */
export interface QueueDeclaration<E = unknown> {
  /** Injected into the queue's provider; the app producing the queue must load it. */
  env: abstract new (...args: never[]) => E;
  jobOptions(env: E): DefaultJobOptions;
}

function declare<E>(env: abstract new (...args: never[]) => E, jobOptions: (env: E) => DefaultJobOptions): QueueDeclaration<E> {
  return { env, jobOptions };
}

/**
 * Every queue's default job options, in one place: the producer's Queue is created with them
 * (BullMQ's `defaultJobOptions`), so an `add` names only what differs per job (its id). Failed jobs are
 * kept a week for inspection everywhere.
 */
export const QueueDeclarations: { readonly [Q in QueueName]: QueueDeclaration } = {
  /** A carousel message: finished jobs are kept a day (`GET /v1/messages/<id>` reads the job while there is no row). */
  [QueueNames.carouselDispatch]: declare(WhatsAppRetryEnv, (env) => ({
    attempts: env.WHATSAPP_MAX_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.WHATSAPP_BACKOFF_MS, jitter: 0.5 },
    removeOnComplete: { age: DAY_S, count: 10_000 },
    removeOnFail: { age: WEEK_S },
  })),
  /** A conversation reply: retried like a carousel message. */
  [ConversationQueueNames.conversationReply]: declare(WhatsAppRetryEnv, (env) => ({
    attempts: env.WHATSAPP_MAX_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.WHATSAPP_BACKOFF_MS, jitter: 0.5 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: WEEK_S },
  })),
  /**
   * Push fan-out. Finished jobs are kept an hour: a batch's job id must still be taken when a planner
   * retry re-adds it, or that batch would be queued (and sent) twice.
   */
  [PushQueueNames.fanout]: declare(PushEnv, (env) => ({
    attempts: env.PUSH_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.PUSH_JOB_BACKOFF_MS, jitter: 0.5 },
    removeOnComplete: { age: 3600 },
    removeOnFail: { age: WEEK_S },
  })),
  /**
   * Bot webhook calls and postbacks: one retry schedule, exponential backoff (about a day with the
   * defaults). The job id is the event's, so queueing the same event twice is one job.
   */
  [CallbackQueueNames.callback]: declare(CallbackEnv, callbackJobOptions),
  /** What an earlier version queued for bot webhooks and postbacks: only drained into the callback queue. */
  [LegacyCallbackQueueNames.botWebhook]: declare(CallbackEnv, callbackJobOptions),
  [LegacyCallbackQueueNames.postback]: declare(CallbackEnv, callbackJobOptions),
  /** A hosted bot's turn: only a wake-up (the inputs are rows), retried through outages. */
  [BotQueueNames.botTurn]: declare(BotRuntimeEnv, (env) => ({
    attempts: env.BOT_TURN_MAX_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.BOT_TURN_BACKOFF_MS, jitter: 0.5 },
    removeOnComplete: true,
    removeOnFail: { age: WEEK_S },
  })),
  /**
   * A campaign's planner: removed when it ends, so that a resume can add it again under the same id;
   * BullMQ's attempts cover crashes (its rounds are idempotent).
   */
  [CampaignQueueNames.campaigns]: declare(CoreEnv, () => ({
    attempts: 1000,
    backoff: { type: 'fixed', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  })),
};

function callbackJobOptions(env: CallbackEnv): DefaultJobOptions {
  return {
    attempts: env.CALLBACK_MAX_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.CALLBACK_BACKOFF_MS, jitter: 0.2 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: WEEK_S },
  };
}
