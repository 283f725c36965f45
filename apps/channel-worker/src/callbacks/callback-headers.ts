import { CallbackJob, WEBHOOK_SIGNATURE_HEADER, signPostback, signWebhookBody } from '@platform/contracts';

/**
 * The headers of one callback attempt, signed with every secret that is valid now (two during a
 * rotation). Both kinds carry the Standard Webhooks headers; webhook calls also carry the earlier
 * x-platform-* headers, so bots that verify `x-platform-signature` keep working.
 */
export function callbackHeaders(job: CallbackJob, secrets: readonly string[], timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const standard = signPostback(secrets, job.id, job.body, timestamp);
  if (job.kind === 'postback') return { 'user-agent': 'bot-platform-postbacks/1', ...standard };
  return {
    'user-agent': 'bot-platform-webhooks/1',
    ...standard,
    [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(secrets, job.body, timestamp),
    'x-platform-delivery': job.id,
    'x-platform-event': job.event,
  };
}
