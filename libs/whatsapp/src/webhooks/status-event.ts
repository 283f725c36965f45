import { RECEIPT_ORDER, ReceiptStatus, StatusEvent } from './status-transitions.js';
import { Json, asArray, asObject, metaId, str, unixTime } from './webhook-json.js';

/**
 * One entry of a notification's `value.statuses[]` as a status event; null for one without a usable id
 * or of another kind (e.g. `deleted`).
 */
export function readStatusEvent(raw: unknown): StatusEvent | null {
  const s = asObject(raw);
  const providerMessageId = metaId(s?.id, 512);
  const status = s?.status as ReceiptStatus;
  if (!providerMessageId || !RECEIPT_ORDER.includes(status)) return null;
  return { providerMessageId, status, at: unixTime(s!.timestamp), error: status === 'failed' ? toError(asObject(asArray(s!.errors)[0])) : null };
}

/** Meta's code and title, as the worker records a refused send's code and text. */
function toError(e: Json | undefined): { code: string | null; text: string } {
  const code = typeof e?.code === 'number' || typeof e?.code === 'string' ? (str(String(e.code), 64) ?? null) : null;
  const text = [str(e?.title, 1000), str(e?.message, 1000)].find((t) => t !== undefined) ?? 'Meta reported the message failed';
  return { code, text };
}
