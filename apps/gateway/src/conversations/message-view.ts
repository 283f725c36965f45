import type { BotApiMessageView, MessageSender } from '@platform/contracts';
import type { ConversationMessageRow } from '@platform/database';
import { toMessageView } from '@platform/conversations';

// The view is shared with the bot runtime's reply path (libs/conversations).
export { toMessageView };

/**
 * A message as the bot's own API lists it: the shared view and who sent it, so that a bot reading a
 * transcript tells an agent's reply (from the console's inbox) from its own. The chat page's view
 * leaves the sender out: members' ids are nothing the end user's page needs.
 */
export function toBotApiMessageView(row: ConversationMessageRow & { sentByUserId: string | null }): BotApiMessageView {
  const sentBy: MessageSender = row.direction === 'inbound' ? { kind: 'user' } : row.sentByUserId ? { kind: 'agent', userId: row.sentByUserId } : { kind: 'bot' };
  return { ...toMessageView(row), sentBy };
}
