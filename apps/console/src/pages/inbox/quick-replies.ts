/** How many quick replies one reply may carry: the API's limit (SendInboxMessageDto). */
export const MAX_QUICK_REPLIES = 3;

/** The quick replies typed as one comma-separated field. */
export function quickReplyList(field: string): string[] {
  return field
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
}
