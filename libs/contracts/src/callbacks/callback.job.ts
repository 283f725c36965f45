import type { LifecycleStatus } from '../postbacks/postback.job.js';
import type { WebhookDelivery } from '../sdk/webhook.dto.js';

/** BullMQ queue of every outgoing callback (produced by the gateway, the channel worker and the CLI; consumed by the channel worker). */
export const CallbackQueueNames = {
  callback: 'callbacks',
} as const;

/** `webhook`: session starts, app events and messages for the bot; `postback`: message status changes. */
export const CALLBACK_KINDS = ['webhook', 'postback'] as const;
export type CallbackKind = (typeof CALLBACK_KINDS)[number];

export function isCallbackKind(value: string): value is CallbackKind {
  return (CALLBACK_KINDS as readonly string[]).includes(value);
}

/** Job `deliver` (an event's first delivery) or `replay` (an administrator re-sends a logged one) of the callback queue. */
export interface CallbackJob {
  /** The delivery log id and `webhook-id` header: the same on every attempt and replay. */
  id: string;
  botId: string;
  kind: CallbackKind;
  /** session.started | app.event | message.received | message.status */
  event: string;
  /**
   * Postbacks: where it goes (the trigger's URL, else the bot's, when the status changed). Webhook
   * calls: null, they go to the bot's webhook URL as it is when sent.
   */
  url: string | null;
  /** The exact JSON text to sign and send. */
  body: string;
  /** Postbacks: the message and status they report. */
  messageId?: string;
  status?: LifecycleStatus;
}

/** The callback job of a webhook delivery to a bot. */
export function webhookCallbackJob(botId: string, delivery: WebhookDelivery): CallbackJob {
  return { id: delivery.id, botId, kind: 'webhook', event: delivery.type, url: null, body: JSON.stringify(delivery) };
}

/** Messages reach the bot in their conversation's order: a `message.received` call waits for the earlier ones. */
export function isOrderedCallback(job: CallbackJob): boolean {
  return job.kind === 'webhook' && job.event === 'message.received';
}
