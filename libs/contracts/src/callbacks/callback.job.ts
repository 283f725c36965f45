import { isOneOf } from '../common/one-of.js';
import type { LifecycleStatus, MessageStatusChange } from '../postbacks/lifecycle-stream.js';
import type { WebhookDelivery } from '../sdk/webhook.dto.js';

/** BullMQ queue of every outgoing callback (produced by the gateway, the channel worker and the CLI; consumed by the channel worker). */
export const CallbackQueueNames = {
  callback: 'callbacks',
} as const;

/** `webhook`: session starts, app events and messages for the bot; `postback`: message status changes. */
export const CALLBACK_KINDS = ['webhook', 'postback'] as const;
export type CallbackKind = (typeof CALLBACK_KINDS)[number];

export const isCallbackKind = (value: string): value is CallbackKind => isOneOf(CALLBACK_KINDS, value);

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

/** Body POSTed to a postback URL (its bytes are what is signed). */
export interface PostbackBody {
  type: 'message.status';
  /** Same as the webhook-id header: `<messageId>.<status>`. */
  id: string;
  messageId: string;
  botId: string;
  status: LifecycleStatus;
  timestamp: string;
  error: { code: string | null; text: string } | null;
  customPayload: unknown;
}

/** The postback id of a message's status: stable, so a duplicate report is one delivery. */
export function postbackId(messageId: string, status: LifecycleStatus): string {
  return `${messageId}.${status}`;
}

export function postbackBody(change: MessageStatusChange): PostbackBody {
  return {
    type: 'message.status',
    id: postbackId(change.messageId, change.status),
    messageId: change.messageId,
    botId: change.botId,
    status: change.status,
    timestamp: change.at,
    error: change.error,
    customPayload: change.customPayload ?? null,
  };
}
