import type { CarouselDispatchJob } from './carousel/carousel-dispatch.job.js';
import { ConversationQueueNames, type ConversationReplyJob } from './conversations/conversation-reply.job.js';
import { PushQueueNames, type PushBatchJob, type PushPlanJob } from './push/push-queues.js';
import { CallbackQueueNames, type CallbackJob } from './callbacks/callback.job.js';
import { BotQueueNames, type BotTurnJob } from './bots/bot-turn.job.js';
import { CampaignQueueNames, type CampaignPlanJob } from './campaigns/campaign-plan.job.js';
import { LegacyCallbackQueueNames, type LegacyBotWebhookJob, type LegacyPostbackJob } from './callbacks/legacy-callback-queues.js';

/** BullMQ queue names shared by producers and workers. */
export const QueueNames = {
  carouselDispatch: 'carousel-dispatch',
} as const;

/**
 * Every queue's jobs: queue name → { job name → payload }. Producers add, and workers receive, only
 * these names with these payloads (`@platform/queue` types both sides from this map), so a worker's
 * `switch (job.name)` knows `job.data`.
 */
export interface QueueJobs {
  [QueueNames.carouselDispatch]: { send: CarouselDispatchJob };
  [PushQueueNames.fanout]: { plan: PushPlanJob; batch: PushBatchJob };
  /** Named after the conversation's channel. */
  [ConversationQueueNames.conversationReply]: { whatsapp: ConversationReplyJob; read: ConversationReplyJob };
  /** Bot webhook calls and postbacks. `deliver`: an event's first delivery; `replay`: an administrator re-sends a logged one. */
  [CallbackQueueNames.callback]: { deliver: CallbackJob; replay: CallbackJob };
  /** Drained into the callback queue (what an earlier version queued). */
  [LegacyCallbackQueueNames.botWebhook]: { 'session.started': LegacyBotWebhookJob; 'app.event': LegacyBotWebhookJob; 'message.received': LegacyBotWebhookJob };
  [LegacyCallbackQueueNames.postback]: { deliver: LegacyPostbackJob; replay: LegacyPostbackJob };
  /** Hosted bots: a conversation has input to process. */
  [BotQueueNames.botTurn]: { turn: BotTurnJob };
  /** Campaigns: a running campaign's planner. */
  [CampaignQueueNames.campaigns]: { plan: CampaignPlanJob };
}

export type QueueName = keyof QueueJobs;
export type JobName<Q extends QueueName> = keyof QueueJobs[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q> = JobName<Q>> = QueueJobs[Q][N];

/** The job names of each queue at run time: a worker refuses a job whose name is not among them. */
export const QueueJobNames: { readonly [Q in QueueName]: ReadonlyArray<JobName<Q>> } = {
  [QueueNames.carouselDispatch]: ['send'],
  [PushQueueNames.fanout]: ['plan', 'batch'],
  [ConversationQueueNames.conversationReply]: ['whatsapp', 'read'],
  [CallbackQueueNames.callback]: ['deliver', 'replay'],
  [LegacyCallbackQueueNames.botWebhook]: ['session.started', 'app.event', 'message.received'],
  [LegacyCallbackQueueNames.postback]: ['deliver', 'replay'],
  [BotQueueNames.botTurn]: ['turn'],
  [CampaignQueueNames.campaigns]: ['plan'],
};
