import type { LifecycleStatus } from '../postbacks/lifecycle-stream.js';
import type { WebhookDelivery } from '../sdk/webhook.dto.js';
import { type CallbackJob, webhookCallbackJob } from './callback.job.js';

/**
 * The queues bot webhook calls and postbacks went through before they became callbacks. Nothing
 * queues to them any more except a gateway or worker of the earlier version during a rolling upgrade;
 * the channel worker moves what they hold to the callback queue, so no call is lost.
 */
export const LegacyCallbackQueueNames = {
  botWebhook: 'bot-webhook',
  postback: 'message-postback',
} as const;

/** A job of `bot-webhook` (named after the delivery's type). */
export interface LegacyBotWebhookJob {
  botId: string;
  delivery: WebhookDelivery;
}

/** A job of `message-postback` (`deliver` or `replay`). */
export interface LegacyPostbackJob {
  id: string;
  botId: string;
  messageId: string;
  status: LifecycleStatus;
  url: string;
  body: string;
}

export function callbackJobOfLegacyWebhook(job: LegacyBotWebhookJob): CallbackJob {
  return webhookCallbackJob(job.botId, job.delivery);
}

export function callbackJobOfLegacyPostback(job: LegacyPostbackJob): CallbackJob {
  return { id: job.id, botId: job.botId, kind: 'postback', event: 'message.status', url: job.url, body: job.body, messageId: job.messageId, status: job.status };
}
