/** The quick replies typed as one comma-separated field. */
export function quickReplyList(field: string): string[] {
  return field
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
}
