/**
 * The Cloud API body that marks the user's message read (blue ticks) and shows them the typing
 * indicator, which Meta hides when the business answers or after 25 seconds
 * (POST /<phone-number-id>/messages; Meta answers `{"success":true}`).
 */
export function readReceiptBody(wamid: string, typing = true): Record<string, unknown> {
  return { messaging_product: 'whatsapp', status: 'read', message_id: wamid, ...(typing ? { typing_indicator: { type: 'text' } } : {}) };
}

/** What became of a read receipt: taken, or refused with Meta's code and text (never retried: it is a courtesy). */
export type ReadReceiptOutcome = { ok: true } | { ok: false; code: string; text: string };

/** Meta's answer to a read receipt: 2xx with `success: true`. */
export function classifyReadReceiptAnswer(status: number, payload: { success?: boolean; error?: { code?: number; message?: string } } | undefined): ReadReceiptOutcome {
  if (status >= 200 && status < 300 && payload?.success === true) return { ok: true };
  return { ok: false, code: payload?.error?.code !== undefined ? String(payload.error.code) : `http_${status}`, text: payload?.error?.message ?? `HTTP ${status}` };
}
