import { RECEIPT_ORDER, ReceiptStatus, StatusEvent } from './status-transitions.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The message statuses of a WhatsApp Business Account webhook notification
 * (`entry[].changes[field=messages].value.statuses[]`); anything else in it (incoming messages, other
 * fields) is not ours. `skipped` counts statuses without an id or of another kind (e.g. `deleted`).
 */
export function readStatusEvents(notification: unknown): { events: StatusEvent[]; skipped: number } {
  const events: StatusEvent[] = [];
  let skipped = 0;
  const body = asObject(notification);
  if (body?.object !== 'whatsapp_business_account') return { events, skipped };
  for (const entry of asArray(body.entry)) {
    for (const change of asArray(asObject(entry)?.changes)) {
      if (asObject(change)?.field !== 'messages') continue;
      for (const status of asArray(asObject(asObject(change)?.value)?.statuses)) {
        const event = toEvent(asObject(status));
        if (event) events.push(event);
        else skipped++;
      }
    }
  }
  return { events, skipped };
}

function toEvent(s: Json | undefined): StatusEvent | null {
  const id = s?.id;
  const status = s?.status as ReceiptStatus;
  if (typeof id !== 'string' || id === '' || id.length > 512 || !RECEIPT_ORDER.includes(status)) return null;
  const seconds = typeof s!.timestamp === 'string' && /^\d{1,12}$/.test(s!.timestamp) ? Number(s!.timestamp) : undefined;
  const at = seconds === undefined ? new Date() : new Date(seconds * 1000);
  return { providerMessageId: id, status, at, error: status === 'failed' ? toError(asObject(asArray(s!.errors)[0])) : null };
}

/** Meta's code and title, as the worker records a refused send's code and text. */
function toError(e: Json | undefined): { code: string | null; text: string } {
  const code = typeof e?.code === 'number' || typeof e?.code === 'string' ? String(e.code) : null;
  const text = [e?.title, e?.message].find((t): t is string => typeof t === 'string' && t !== '') ?? 'Meta reported the message failed';
  return { code, text: text.slice(0, 1000) };
}
