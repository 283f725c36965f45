import { createHash } from 'node:crypto';

/**
 * The message id of a campaign's message to a recipient: a UUID (version 5 layout) derived from both, so
 * every planner, worker and retry names the same message, and the dispatch claim (one row per message
 * id) lets it be sent once.
 */
export function campaignMessageId(campaignId: string, recipient: string): string {
  const h = createHash('sha1').update(`campaign:${campaignId}:${recipient}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
