// The inbox section (docs/console.md#inbox): the list of conversations, one conversation with what an agent
// does in it, and the bot's canned responses, each in a file of its own here.
import { Bot } from '../../api.js';
import { CANNED_PATH, CannedResponsesPage } from './canned-responses.js';
import { InboxList } from './conversation-list.js';
import { ConversationView } from './conversation-view.js';

export function InboxPage({ bot, conversationId }: { bot: Bot; conversationId?: string }) {
  if (conversationId === CANNED_PATH) return <CannedResponsesPage bot={bot} />;
  // Keyed by the conversation: the older messages one conversation's reader loaded never show in another's.
  return conversationId ? <ConversationView key={conversationId} bot={bot} id={conversationId} /> : <InboxList bot={bot} />;
}
