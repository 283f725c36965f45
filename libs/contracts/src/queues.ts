import type { CarouselDispatchJob } from './carousel/carousel-dispatch.job.js';
import { ConversationQueueNames, type ConversationReplyJob } from './conversations/conversation-reply.job.js';
import { PushQueueNames, type PushBatchJob, type PushPlanJob } from './push/push-queues.js';
import { PostbackQueueNames, type PostbackJob } from './postbacks/postback.job.js';
import { SdkQueueNames, type BotWebhookJob } from './sdk/webhook.dto.js';

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
  /** Named after the delivery's type. */
  [SdkQueueNames.botWebhook]: { 'session.started': BotWebhookJob; 'app.event': BotWebhookJob; 'message.received': BotWebhookJob };
  /** Named after the conversation's channel. */
  [ConversationQueueNames.conversationReply]: { whatsapp: ConversationReplyJob };
  /** `deliver`: a status change's first delivery; `replay`: an administrator re-sends a logged one. */
  [PostbackQueueNames.postback]: { deliver: PostbackJob; replay: PostbackJob };
}

export type QueueName = keyof QueueJobs;
export type JobName<Q extends QueueName> = keyof QueueJobs[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q> = JobName<Q>> = QueueJobs[Q][N];

/** The job names of each queue at run time: a worker refuses a job whose name is not among them. */
export const QueueJobNames: { readonly [Q in QueueName]: ReadonlyArray<JobName<Q>> } = {
  [QueueNames.carouselDispatch]: ['send'],
  [PushQueueNames.fanout]: ['plan', 'batch'],
  [SdkQueueNames.botWebhook]: ['session.started', 'app.event', 'message.received'],
  [ConversationQueueNames.conversationReply]: ['whatsapp'],
  [PostbackQueueNames.postback]: ['deliver', 'replay'],
};
