// How a conversation reads in the inbox: its status, its user, and a message as one line of text.
import { fileLabel, type ConversationMessageView, type InboxMessageSender } from '@platform/contracts/views';
import { count } from '../../count.js';

export const STATUS_TEXT: Record<string, string> = { handoff: 'With an agent', waiting: 'With the bot', ended: 'Closed', none: 'Closed' };

export function userName(channel: string, userId: string): string {
  return channel === 'whatsapp' ? `+${userId}` : `Web user ${userId.slice(0, 8)}`;
}

export function messageText(m: ConversationMessageView): string {
  const c = m.content as { text?: string; payload?: string; image?: { url: string; caption?: string }; cards?: unknown[]; quickReplies?: Array<{ title: string }> };
  // A file the user sent reads as its kind and name (its caption, which is also the message's text, with them), not as its type ("attachment", "media").
  const parts = [fileLabel(m.content) ?? c.text ?? (c.image ? `Image: ${c.image.caption ?? c.image.url}` : c.cards ? count(c.cards.length, 'card') : (c.payload ?? m.type))];
  if (c.quickReplies?.length) parts.push(`[${c.quickReplies.map((q) => q.title).join(' | ')}]`);
  return parts.join(' ');
}

/** Who wrote a message of the transcript: "User", "Bot", or "Agent <their e-mail>". */
export function senderLabel(sentBy: InboxMessageSender): string {
  if (sentBy.kind === 'user') return 'User';
  if (sentBy.kind === 'bot') return 'Bot';
  return sentBy.email ? `Agent ${sentBy.email}` : 'Agent (a former member)';
}
