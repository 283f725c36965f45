import { useState } from 'preact/hooks';
import type { InboxConversationItem, InboxFilterName, InboxListResponse } from '@platform/contracts/views';
import { Bot, api } from '../../api.js';
import { DataTable } from '../../data-table.js';
import { href } from '../../router.js';
import { EmptyState, ErrorNotice, PagerNav, useLoad } from '../../ui.js';
import { Inbox } from '../../icons.js';
import { usePoll, pollError, RefreshFailed } from './refresh.js';
import { STATUS_TEXT, userName } from './display.js';
import { CANNED_PATH } from './canned-responses.js';

const FILTERS: Array<{ value: InboxFilterName; label: string }> = [
  { value: 'waiting', label: 'Waiting for an agent' },
  { value: 'mine', label: 'Assigned to me' },
  { value: 'bot', label: 'Open with the bot' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
];

export function InboxList({ bot }: { bot: Bot }) {
  const [filter, setFilter] = useState<InboxFilterName>('waiting');
  const [channel, setChannel] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const query = new URLSearchParams({ filter, ...(channel ? { channel } : {}), ...(cursor ? { cursor } : {}) });
  const list = useLoad(() => api<InboxListResponse>('GET', `/v1/bots/${bot.id}/inbox/conversations?${query}`), [bot.id, query.toString()]);
  usePoll(list.reload);
  const counts = list.data?.counts;
  const pick = (f: InboxFilterName) => {
    setFilter(f);
    setCursors([]);
  };
  return (
    <section>
      <h1>Inbox</h1>
      <p>
        Conversations of <strong>{bot.name}</strong>. Take one over to pause the bot and answer the user yourself; hand it back when you are done. The list updates every few seconds; unread counts are
        yours: what you have not opened yet. <a href={href('bots', bot.id, 'inbox', CANNED_PATH)}>Canned responses</a>
      </p>
      <div class="inbox-filters">
        <div role="group" aria-label="Show conversations">
          {FILTERS.map((f) => {
            const n = f.value === 'all' ? undefined : counts?.[f.value];
            return (
              <button type="button" class={filter === f.value ? '' : 'secondary outline'} aria-pressed={filter === f.value} onClick={() => pick(f.value)}>
                {f.label}
                {n !== undefined && (
                  <>
                    {' '}
                    <span class="badge">{n}</span>
                  </>
                )}
              </button>
            );
          })}
        </div>
        <label class="inline">
          Channel{' '}
          <select
            value={channel}
            onChange={(e) => {
              setChannel((e.target as HTMLSelectElement).value);
              setCursors([]);
            }}
          >
            <option value="">All channels</option>
            <option value="web">Web chat</option>
            <option value="whatsapp">WhatsApp</option>
          </select>
        </label>
      </div>
      {counts && counts.unread > 0 && (
        <p role="status" data-testid="unread-total">
          {counts.unread} unread {counts.unread === 1 ? 'message' : 'messages'} (that you have not seen) waiting for you or for an agent.
        </p>
      )}
      <RefreshFailed load={list} />
      <ErrorNotice error={pollError(list)} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading conversations…"
        rows={list.data?.conversations}
        caption="Conversations"
        columns={['User', 'Channel', 'State', 'Assigned to', 'Last message', 'Unread']}
        testId="inbox-list"
        empty={
          <EmptyState icon={Inbox} title="Nothing here" testId="inbox-empty">
            {emptyText(filter)}
          </EmptyState>
        }
        row={(c: InboxConversationItem) => (
          <tr>
            <th scope="row">
              <a href={href('bots', bot.id, 'inbox', c.id)}>{userName(c.channel, c.userId)}</a>
            </th>
            <td>{c.channel === 'web' ? 'Web chat' : 'WhatsApp'}</td>
            <td>
              {STATUS_TEXT[c.status]}
              {c.journey && <small> · {c.journey}</small>}
            </td>
            <td>{c.assignee?.email ?? 'Nobody'}</td>
            <td>{c.lastMessage ? `${c.lastMessage.direction === 'inbound' ? 'User' : 'Bot/agent'}: ${c.lastMessage.preview}` : '—'}</td>
            <td>
              {c.unread > 0 ? (
                <strong class="badge" aria-label={`${c.unread} unread`}>
                  {c.unread}
                </strong>
              ) : (
                '0'
              )}
            </td>
          </tr>
        )}
      >
        <PagerNav
          label="Conversations"
          back={cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined}
          forward={list.data?.next ? () => setCursors([...cursors, list.data!.next!]) : undefined}
        />
      </DataTable>
    </section>
  );
}

function emptyText(filter: InboxFilterName): string {
  switch (filter) {
    case 'waiting':
      return 'No conversation is waiting for an agent. When a bot hands a user over (a handoff node), the conversation shows up here.';
    case 'mine':
      return 'Nothing is assigned to you. Take over a conversation from “Waiting for an agent” or “Open with the bot”.';
    case 'bot':
      return 'The bot is not in the middle of any journey right now.';
    default:
      return 'No conversations yet. They start when users open the chat page or write to the WhatsApp number.';
  }
}
