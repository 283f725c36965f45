import { PROVIDER_STATUS_ORDER } from '@platform/database';
import type { MessageStatus, ProviderStatusUpdate } from '@platform/database';

/**
 * The statuses Meta reports, in the order they supersede each other: a message never moves back in it
 * (the database's order, which also applies the statuses it holds for sends not yet recorded).
 */
export const RECEIPT_ORDER = PROVIDER_STATUS_ORDER;

export type ReceiptStatus = (typeof RECEIPT_ORDER)[number];

/** One status of one message, as a webhook reported it. */
export interface StatusEvent {
  providerMessageId: string;
  status: ReceiptStatus;
  at: Date;
  error: { code: string | null; text: string } | null;
}

const rank = (status: MessageStatus) => RECEIPT_ORDER.indexOf(status as ReceiptStatus) + 1;

/** Whether a message in `current` moves to `incoming`. */
export function supersedes(incoming: MessageStatus, current: MessageStatus): boolean {
  return rank(incoming) > rank(current);
}

/**
 * One update per message id from a notification's events: the furthest status, its error if it is
 * `failed`, the earliest time of each of delivered and read (a read implies delivery, so it stands in
 * for a missing delivered).
 */
export function foldStatusEvents(events: readonly StatusEvent[]): ProviderStatusUpdate[] {
  const byId = new Map<string, StatusEvent[]>();
  for (const e of events) byId.set(e.providerMessageId, [...(byId.get(e.providerMessageId) ?? []), e]);
  return [...byId].map(([providerMessageId, all]) => {
    const last = all.reduce((a, b) => (supersedes(b.status, a.status) ? b : a));
    const earliest = (status: ReceiptStatus) => all.filter((e) => e.status === status).reduce<Date | null>((t, e) => (t && t <= e.at ? t : e.at), null);
    const readAt = earliest('read');
    return {
      providerMessageId,
      status: last.status,
      deliveredAt: earliest('delivered') ?? readAt,
      readAt,
      errorCode: last.status === 'failed' ? (last.error?.code ?? null) : null,
      errorText: last.status === 'failed' ? (last.error?.text ?? null) : null,
    };
  });
}
