import { InboundWhatsAppMessage, readInboundMessage } from './inbound-message.js';
import { readStatusEvent } from './status-event.js';
import type { StatusEvent } from './status-transitions.js';
import { WebhookEnvelopeError } from './webhook-envelope.error.js';
import { Json, asObject, metaId } from './webhook-json.js';

/** What a WhatsApp webhook notification brings the platform. */
export interface WhatsAppWebhookNotification {
  /** Statuses of messages sent (`value.statuses[]`), in the notification's order. */
  statuses: StatusEvent[];
  /** Messages users sent (`value.messages[]`), in the notification's order. */
  messages: InboundWhatsAppMessage[];
  /**
   * Entries not read: statuses without an id or of another kind (e.g. `deleted`); messages of other
   * kinds (reactions, system messages…) or without a sender, id or business number.
   */
  skipped: { statuses: number; messages: number };
}

/**
 * Reads a webhook notification's envelope once (`entry[].changes[field=messages].value`, with its
 * `metadata`, `statuses` and `messages`). A notification of another object (not
 * `whatsapp_business_account`), and changes of another field, bring nothing: they are not ours.
 * Entries of the lists Meta may grow (statuses, messages) that cannot be read are skipped and counted;
 * an envelope of another shape throws WebhookEnvelopeError naming the part, for the caller's 400.
 */
export function readWebhookNotification(body: unknown): WhatsAppWebhookNotification {
  const read: WhatsAppWebhookNotification = { statuses: [], messages: [], skipped: { statuses: 0, messages: 0 } };
  const notification = objectAt(body, 'Request body');
  if (notification.object !== 'whatsapp_business_account') return read;
  arrayAt(notification.entry, 'entry').forEach((rawEntry, i) => {
    const entry = objectAt(rawEntry, `entry[${i}]`);
    arrayAt(entry.changes, `entry[${i}].changes`).forEach((rawChange, j) => {
      const at = `entry[${i}].changes[${j}]`;
      const change = objectAt(rawChange, at);
      if (change.field !== 'messages') return;
      const value = objectAt(change.value, `${at}.value`);
      const phoneNumberId = metaId(asObject(value.metadata)?.phone_number_id, 64);
      for (const raw of optionalArrayAt(value.statuses, `${at}.value.statuses`)) {
        const event = readStatusEvent(raw);
        if (event) read.statuses.push(event);
        else read.skipped.statuses++;
      }
      for (const raw of optionalArrayAt(value.messages, `${at}.value.messages`)) {
        const message = readInboundMessage(raw, phoneNumberId);
        if (message) read.messages.push(message);
        else read.skipped.messages++;
      }
    });
  });
  return read;
}

function objectAt(v: unknown, where: string): Json {
  const object = asObject(v);
  if (!object) throw new WebhookEnvelopeError(`${where} must be a JSON object`);
  return object;
}

function arrayAt(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw new WebhookEnvelopeError(`${where} must be an array`);
  return v;
}

const optionalArrayAt = (v: unknown, where: string): unknown[] => (v === undefined ? [] : arrayAt(v, where));
