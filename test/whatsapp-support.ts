// Helpers of the test/whatsapp-*.e2e-spec.ts files that send conversation replies: a conversation opened
// by a user's message, and a reply posted through the API, both with the stack's seeded bot.
import { ConversationRepository } from '@platform/database';
import type { Stack } from './e2e-stack.js';

/** A WhatsApp conversation of `userId` with the seeded bot, its 24-hour window open (the user just wrote); its id. */
export async function openWhatsAppConversation(stack: Stack, userId: string): Promise<string> {
  const repo = stack.gateway.get(ConversationRepository, { strict: false });
  const [sender] = await repo.findSendersByPhoneNumberId(stack.seed.phoneNumberId);
  const { message } = await repo.recordInbound({ botId: stack.seed.botId, channel: 'whatsapp', userId, senderId: sender.id, type: 'text', content: { text: 'hi' }, at: new Date() });
  return message.conversationId;
}

/** POST …/conversations/<id>/messages with the seeded bot's API key: 202 and the reply's messageId, else throws naming the status. */
export async function postReply(stack: Stack, conversationId: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.seed.apiKey}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`the reply was answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { messageId: string }).messageId;
}
