import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type {
  CannedResponseView,
  ConversationMessageView,
  InboxConversationItem,
  InboxConversationResponse,
  InboxFilterName,
  InboxListResponse,
  InboxMessagesResponse,
} from '@platform/contracts/views';
import { ApiError, Bot, api, me, roleAtLeast } from '../api.js';
import { DataTable } from '../data-table.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { href } from '../router.js';
import { EmptyState, ErrorNotice, PagerNav, Success, useAction, useLoad, when } from '../ui.js';
import { Inbox } from '../icons.js';

/** The inbox reads again this often while open: conversations change on the user's side too (polling, not the status stream). */
export const INBOX_POLL_MS = 3000;
/** How many older messages one press of "Show older messages" reads. */
const OLDER_PAGE = 100;

const FILTERS: Array<{ value: InboxFilterName; label: string }> = [
  { value: 'waiting', label: 'Waiting for an agent' },
  { value: 'mine', label: 'Assigned to me' },
  { value: 'bot', label: 'Open with the bot' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
];

const STATUS_TEXT: Record<string, string> = { handoff: 'With an agent', waiting: 'With the bot', ended: 'Closed', none: 'Closed' };

/** Reads again every INBOX_POLL_MS while the tab is visible. */
function usePoll(reload: (quiet: boolean) => unknown) {
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(true), INBOX_POLL_MS);
    return () => clearInterval(timer);
  }, [reload]);
}

/** Failures a later poll may mend (no network, the server's own failure, too many requests): the page keeps what it has and says so. */
function transient(error: ApiError | undefined): boolean {
  return !!error && (error.status === 0 || error.status === 429 || error.status >= 500);
}

/** The error for the page's plain notice: none when it is a poll's failure that RefreshFailed says instead. */
function pollError(load: { error?: ApiError; refreshFailed?: boolean }): ApiError | undefined {
  return load.refreshFailed && transient(load.error) ? undefined : load.error;
}

/**
 * While the poll's reloads fail for a reason a later one may mend, one line says so and since when the page
 * shows what it shows; gone once a reload succeeds. The status region is always there, so that its text is
 * announced when it comes.
 */
function RefreshFailed({ load }: { load: { error?: ApiError; loadedAt?: Date; refreshFailed?: boolean } }) {
  const error = load.refreshFailed && transient(load.error) ? load.error! : null;
  const why = error?.status === 0 ? 'the console cannot reach the server' : error?.status === 429 ? 'the server is busy with too many requests' : 'the server answered with an error';
  // timeStyle 'long' names the time zone, as every time in the console does (`when`).
  return (
    <div role="status" data-testid="refresh-status">
      {error && (
        <p class="notice warning">
          Could not refresh ({why}); showing what was loaded at {load.loadedAt?.toLocaleTimeString(undefined, { timeStyle: 'long' })}. Retrying every few seconds.
        </p>
      )}
    </div>
  );
}

/** `#/bots/<id>/inbox/canned-responses` (conversation ids are UUIDs, so the name cannot clash). */
export const CANNED_PATH = 'canned-responses';

export function InboxPage({ bot, conversationId }: { bot: Bot; conversationId?: string }) {
  if (conversationId === CANNED_PATH) return <CannedResponsesPage bot={bot} />;
  // Keyed by the conversation: the older messages one conversation's reader loaded never show in another's.
  return conversationId ? <ConversationView key={conversationId} bot={bot} id={conversationId} /> : <InboxList bot={bot} />;
}

function InboxList({ bot }: { bot: Bot }) {
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
                {n !== undefined && <span class="badge"> {n}</span>}
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

/** The quick replies typed as one comma-separated field. */
function quickReplyList(field: string): string[] {
  return field
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
}

function userName(channel: string, userId: string): string {
  return channel === 'whatsapp' ? `+${userId}` : `Web user ${userId.slice(0, 8)}`;
}

function messageText(m: ConversationMessageView): string {
  const c = m.content as { text?: string; payload?: string; image?: { url: string; caption?: string }; cards?: unknown[]; quickReplies?: Array<{ title: string }> };
  const parts = [c.text ?? (c.image ? `Image: ${c.image.caption ?? c.image.url}` : c.cards ? `${c.cards.length} cards` : (c.payload ?? m.type))];
  if (c.quickReplies?.length) parts.push(`[${c.quickReplies.map((q) => q.title).join(' | ')}]`);
  return parts.join(' ');
}

/** The transcript the reader has: the view's newest messages and, once asked for, older ones before them. */
interface Transcript {
  messages: ConversationMessageView[];
  /** Whether the conversation has messages older than the first of `messages`. */
  older: boolean;
}

/**
 * `kept` brought up to the view just read: the view's messages (their statuses as read now) after those of
 * `kept` before them, so a poll drops none of the older messages the reader loaded, nor one that moved out
 * of the newest 200 since. When the two do not meet (more than 200 messages came between two reads) the
 * view's alone: a gap would show as if nothing were missing.
 */
function follow(kept: Transcript | null, latest: InboxConversationResponse): Transcript {
  const fresh = latest.messages;
  const at = kept && fresh[0] ? kept.messages.findIndex((m) => m.id === fresh[0]!.id) : -1;
  return kept && at >= 0 ? { messages: [...kept.messages.slice(0, at), ...fresh], older: kept.older } : { messages: fresh, older: latest.olderMessages };
}

function ConversationView({ bot, id }: { bot: Bot; id: string }) {
  const view = useLoad(() => api<InboxConversationResponse>('GET', `/v1/bots/${bot.id}/inbox/conversations/${id}`), [bot.id, id]);
  usePoll(view.reload);
  const account = useLoad(me, []);
  const canAct = roleAtLeast(bot.role, 'developer');
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const data = view.data;
  // Null until the reader asks for older messages: until then the transcript is the view's newest 200.
  const [kept, setKept] = useState<Transcript | null>(null);
  const transcript = data ? follow(kept, data) : null;
  // What the last render had, for an older page that arrives after polls moved the view on.
  const latest = useRef(data);
  latest.current = data;
  const keptNow = useRef(kept);
  keptNow.current = kept;
  useEffect(() => {
    if (data) setKept((k) => k && follow(k, data));
  }, [data]);
  const older = useAction();
  const [olderSaid, setOlderSaid] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const moreButton = useRef<HTMLButtonElement>(null);
  /** The message the reader had first before older ones went in above it, and where it was on screen. */
  const anchor = useRef<{ id: string; top: number; focused: boolean } | null>(null);
  const showOlder = async () => {
    const first = transcript?.messages[0];
    if (!first || older.busy) return;
    // From now on the transcript follows the polls, so a poll during the read cannot move its start away from `first`.
    setKept((k) => k ?? follow(null, latest.current!));
    setOlderSaid('Loading older messages…');
    const page = await older.run(() => api<InboxMessagesResponse>('GET', `/v1/bots/${bot.id}/inbox/conversations/${id}/messages?before=${first.id}&limit=${OLDER_PAGE}`));
    if (!page) return setOlderSaid('');
    const base = follow(keptNow.current, latest.current!);
    // The transcript no longer starts at `first` (over 200 messages came meanwhile and it started over): the page would leave a gap.
    if (base.messages[0]?.id !== first.id) return setOlderSaid('');
    const el = list.current?.querySelector<HTMLElement>(`[data-id="${first.id}"]`);
    anchor.current = el ? { id: first.id, top: el.getBoundingClientRect().top, focused: document.activeElement === moreButton.current } : null;
    const have = new Set(base.messages.map((m) => m.id));
    setKept({ messages: [...page.messages.filter((m) => !have.has(m.id)), ...base.messages], older: page.olderMessages });
    setOlderSaid(
      page.olderMessages
        ? `${page.messages.length} older messages shown above.`
        : `${page.messages.length} older ${page.messages.length === 1 ? 'message' : 'messages'} shown above: the conversation's first message is the first now.`,
    );
  };
  useLayoutEffect(() => {
    const a = anchor.current;
    if (!a) return;
    anchor.current = null;
    // Older messages went in above what the reader was reading: it stays where it was on screen.
    const el = list.current?.querySelector<HTMLElement>(`[data-id="${a.id}"]`);
    if (el) window.scrollBy(0, el.getBoundingClientRect().top - a.top);
    // The button went away with the last page: focus moves to the transcript rather than to the page's start.
    if (a.focused && !moreButton.current) list.current?.focus({ preventScroll: true });
  });
  const lastSeen = data?.messages[data.messages.length - 1]?.id;
  useEffect(() => {
    // What this member sees is read, for them only (up to the newest message shown: one that came after stays unread).
    if (lastSeen && document.visibilityState === 'visible') void api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/read`, { messageId: lastSeen }).catch(() => undefined);
  }, [lastSeen]);

  const act = async (call: () => Promise<{ message: string }>) => {
    const answer = await action.run(call);
    if (answer) {
      setDone(answer.message);
      void view.reload(true);
    }
  };
  if (!data || !transcript) return view.error ? <ErrorNotice error={view.error} /> : <p aria-busy="true">Loading the conversation…</p>;
  const c = data.conversation;
  const status = data.bot?.status ?? 'none';
  const withAgent = status === 'handoff';
  // Waiting for an agent (or with another one): taking over claims it; with the bot, it also pauses the bot.
  const mine = withAgent && c.assignee !== null && c.assignee.userId === account.data?.userId;
  return (
    <section class="inbox-view">
      <p>
        <a href={href('bots', bot.id, 'inbox')}>← Inbox</a>
      </p>
      <h1>{userName(c.channel, c.userId)}</h1>
      <p data-testid="conversation-state">
        {c.channel === 'web' ? 'Web chat' : 'WhatsApp'} · <strong>{STATUS_TEXT[status]}</strong>
        {data.bot?.journey && ` · journey ${data.bot.journey}, node ${data.bot.node}`} · assigned to {c.assignee?.email ?? 'nobody'}
      </p>
      <RefreshFailed load={view} />
      {view.refreshFailed && <ErrorNotice error={pollError(view)} />}
      {done && <Success>{done}</Success>}
      <ErrorNotice error={action.error} />
      {canAct && !mine && (
        <button type="button" disabled={action.busy} onClick={() => act(() => api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/take-over`))}>
          Take over
        </button>
      )}
      <div class="inbox-columns">
        <div>
          <h2>Transcript</h2>
          {transcript.older && (
            <button type="button" ref={moreButton} class="secondary outline older-messages" aria-busy={older.busy} aria-disabled={older.busy} onClick={showOlder}>
              Show older messages
            </button>
          )}
          <p role="status" class="visually-hidden" data-testid="older-status">
            {olderSaid}
          </p>
          <ErrorNotice error={older.error} />
          <ol class="transcript" aria-label="Transcript" data-testid="transcript" ref={list} tabIndex={-1}>
            {transcript.messages.map((m) => (
              <li key={m.id} data-id={m.id} class={m.direction === 'inbound' ? 'from-user' : 'from-bot'}>
                <strong>{m.direction === 'inbound' ? 'User' : 'Bot or agent'}</strong> <small>{when(m.createdAt)}</small>
                <br />
                {messageText(m)}
              </li>
            ))}
          </ol>
          {canAct && withAgent && <ReplyForm bot={bot} id={id} windowOpen={c.replyWindowOpen} onSent={() => void view.reload(true)} />}
          {canAct && withAgent && <HandBack bot={bot} id={id} journeys={data.journeys} act={act} busy={action.busy} />}
        </div>
        <div>
          <h2>Notes</h2>
          <ul aria-label="Internal notes" data-testid="notes">
            {data.notes.map((n) => (
              <li>
                {n.text}{' '}
                <small>
                  — {n.author?.email ?? 'a former member'}, {when(n.createdAt)}
                </small>
              </li>
            ))}
          </ul>
          {data.notes.length === 0 && (
            <p class="muted">No notes yet. {canAct ? 'Add one below: only your team sees it, never the user.' : 'Members with the developer role add them; the user never sees them.'}</p>
          )}
          {canAct && <NoteForm bot={bot} id={id} onAdded={() => void view.reload(true)} />}
          {canAct && <Assign bot={bot} id={id} current={c.assignee?.userId ?? ''} act={act} />}
          <h2>Bot trace</h2>
          <DataTable
            loading={false}
            spinner=""
            rows={data.trace}
            caption="Steps the bot ran"
            columns={['Journey', 'Node', 'Kind', 'Outcome', 'Time']}
            empty={<p>The bot has not run in this conversation.</p>}
            row={(s) => (
              <tr>
                <td>{s.journey}</td>
                <td>{s.node}</td>
                <td>{s.kind}</td>
                <td>{s.error ? `${s.outcome}: ${s.error}` : s.outcome}</td>
                <td>{when(s.at)}</td>
              </tr>
            )}
          />
        </div>
      </div>
    </section>
  );
}

function ReplyForm({ bot, id, windowOpen, onSent }: { bot: Bot; id: string; windowOpen: boolean; onSent: () => void }) {
  const [text, setText] = useState('');
  const [quick, setQuick] = useState('');
  const [image, setImage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  const canned = useLoad(() => api<{ cannedResponses: CannedResponseView[] }>('GET', `/v1/bots/${bot.id}/inbox/canned-responses`), [bot.id]);
  const responses = canned.data?.cannedResponses ?? [];
  const [picked, setPicked] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLSelectElement>(null);
  /** The reply last sent without an answer (offline, connection lost), and its Idempotency-Key. */
  const unanswered = useRef<{ body: string; key: string } | null>(null);
  const current = responses.find((x) => x.id === picked) ?? responses[0];
  /** The chosen response goes where the cursor was in the message (replacing a selection), its quick replies with it; focus returns to the message. */
  const insert = () => {
    const r = current;
    if (!r) return;
    const el = box.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + r.text + text.slice(end);
    setText(next);
    if (r.quickReplies.length && !quick.trim()) setQuick(r.quickReplies.join(', '));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + r.text.length, start + r.text.length);
    });
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const quickReplies = quickReplyList(quick);
    if (!text.trim() && !image.trim()) return setError('Write a message or give an image link');
    setError(null);
    const body = image.trim()
      ? { image: { url: image.trim(), ...(text.trim() ? { caption: text.trim() } : {}) } }
      : { text, ...(quickReplies.length ? { quickReplies: quickReplies.map((title) => ({ title })) } : {}) };
    // The same reply sent again after no answer keeps its key, so a first try that did arrive is not sent twice.
    const json = JSON.stringify(body);
    if (unanswered.current?.body !== json) unanswered.current = { body: json, key: replyKey() };
    const { key } = unanswered.current;
    const sent = await action.run(async () => {
      try {
        return await api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/messages`, body, { 'idempotency-key': key });
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 0)) unanswered.current = null; // the server answered: nothing to repeat
        throw err;
      }
    });
    if (sent) {
      unanswered.current = null;
      setText('');
      setQuick('');
      setImage('');
      onSent();
    }
  };
  return (
    <form aria-label="Reply" onSubmit={submit}>
      <h2>Reply</h2>
      {!windowOpen && <p class="notice warning">The user last wrote more than 24 hours ago: WhatsApp takes no free-form reply until they write again (send a template instead).</p>}
      <Field id="reply-text" label="Message" error={error} hint={responses.length ? 'Ctrl+/ (or ⌘/) moves to the canned responses; Insert puts the chosen one at the cursor.' : undefined}>
        {(aria) => (
          <textarea
            {...aria}
            ref={box}
            rows={3}
            value={text}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            onKeyDown={(e) => {
              if (e.key === '/' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                picker.current?.focus();
              }
            }}
          />
        )}
      </Field>
      {responses.length > 0 ? (
        <div class="canned-insert" role="group" aria-label="Canned responses">
          <label for="canned-pick">Canned response</label>
          <select id="canned-pick" ref={picker} value={current?.id} onChange={(e) => setPicked((e.target as HTMLSelectElement).value)}>
            {responses.map((r) => (
              <option value={r.id}>{r.title}</option>
            ))}
          </select>
          <button type="button" class="secondary" onClick={insert}>
            Insert
          </button>
        </div>
      ) : (
        <p class="muted">
          No canned responses yet: <a href={href('bots', bot.id, 'inbox', CANNED_PATH)}>add the replies your team sends often</a>.
        </p>
      )}
      <InputField id="reply-quick" label="Quick replies (optional, comma-separated, up to 3)" value={quick} onValue={setQuick} />
      <InputField id="reply-image" label="Image link (optional: sends an image, the message as its caption)" type="url" value={image} onValue={setImage} />
      <ErrorNotice error={action.error} />
      <SubmitButton action={action}>Send reply</SubmitButton>
    </form>
  );
}

function HandBack({ bot, id, journeys, act, busy }: { bot: Bot; id: string; journeys: string[]; act: (call: () => Promise<{ message: string }>) => void; busy: boolean }) {
  const [to, setTo] = useState('');
  return (
    <form
      aria-label="Hand back"
      onSubmit={(e) => {
        e.preventDefault();
        act(() => api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/handback`, to ? { journeySlug: to } : {}));
      }}
    >
      <h2>Hand back</h2>
      <label>
        Hand back to
        <select value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
          <option value="">The bot (it goes on after its handoff)</option>
          {journeys.map((j) => (
            <option value={j}>Journey {j}</option>
          ))}
        </select>
      </label>
      <button type="submit" class="secondary" disabled={busy}>
        Hand back
      </button>
    </form>
  );
}

function NoteForm({ bot, id, onAdded }: { bot: Bot; id: string; onAdded: () => void }) {
  const [text, setText] = useState('');
  const action = useAction();
  return (
    <form
      aria-label="Add a note"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await action.run(() => api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/notes`, { text }))) {
          setText('');
          onAdded();
        }
      }}
    >
      <Field id="note-text" label="Internal note (the user never sees it)" error={action.error?.status === 400 ? action.error.message : null}>
        {(aria) => <textarea {...aria} rows={2} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <SubmitButton action={action}>Add note</SubmitButton>
    </form>
  );
}

function Assign({ bot, id, current, act }: { bot: Bot; id: string; current: string; act: (call: () => Promise<{ message: string }>) => void }) {
  const members = useLoad(() => api<{ members: Array<{ userId: string; email: string }> }>('GET', `/v1/bots/${bot.id}/members`), [bot.id]);
  return (
    <label>
      Assigned to
      <select
        value={current}
        onChange={(e) => {
          const userId = (e.target as HTMLSelectElement).value || null;
          act(() => api('PUT', `/v1/bots/${bot.id}/inbox/conversations/${id}/assignee`, { userId }));
        }}
      >
        <option value="">Nobody</option>
        {(members.data?.members ?? []).map((m) => (
          <option value={m.userId}>{m.email}</option>
        ))}
      </select>
    </label>
  );
}

/** The bot's canned responses: what agents insert into a reply. Viewers read them; developers add, change and delete. */
function CannedResponsesPage({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ cannedResponses: CannedResponseView[] }>('GET', `/v1/bots/${bot.id}/inbox/canned-responses`), [bot.id]);
  const canAct = roleAtLeast(bot.role, 'developer');
  const [editing, setEditing] = useState<CannedResponseView | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  // A new key after each save: the add form starts empty again.
  const [saves, setSaves] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const remove = async (r: CannedResponseView) => {
    if (await action.run(() => api('DELETE', `/v1/bots/${bot.id}/inbox/canned-responses/${r.id}`))) {
      setDeleting(null);
      if (editing?.id === r.id) setEditing(null);
      // The list is read again before the confirmation shows, so what it says is what the table shows.
      await list.reload(true);
      setDone(`Deleted “${r.title}”.`);
    }
  };
  return (
    <section>
      <p>
        <a href={href('bots', bot.id, 'inbox')}>← Inbox</a>
      </p>
      <h1>Canned responses</h1>
      <p>Replies your team sends often. In a conversation, choose one under the message and press Insert (or Ctrl+/ from the message) to put it at the cursor.</p>
      {done && <Success>{done}</Success>}
      <ErrorNotice error={list.error ?? action.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading canned responses…"
        rows={list.data?.cannedResponses}
        caption="Canned responses"
        columns={canAct ? ['Title', 'Text', 'Quick replies', 'Actions'] : ['Title', 'Text', 'Quick replies']}
        testId="canned-list"
        empty={
          <EmptyState icon={Inbox} title="No canned responses yet" testId="canned-empty">
            {canAct ? 'Add the first one below: a title to find it by, the text, and up to 3 quick replies.' : 'Members with the developer role add them.'}
          </EmptyState>
        }
        row={(r: CannedResponseView) => (
          <tr>
            <th scope="row">{r.title}</th>
            <td class="break">{r.text}</td>
            <td>{r.quickReplies.join(', ') || '—'}</td>
            {canAct && (
              <td>
                {deleting === r.id ? (
                  <span class="row-actions">
                    <button type="button" class="contrast" disabled={action.busy} onClick={() => remove(r)}>
                      Confirm delete “{r.title}”
                    </button>
                    <button type="button" class="secondary outline" onClick={() => setDeleting(null)}>
                      Cancel
                    </button>
                  </span>
                ) : (
                  <span class="row-actions">
                    <button type="button" class="secondary outline" aria-label={`Edit “${r.title}”`} onClick={() => (setEditing(r), setDone(null))}>
                      Edit
                    </button>
                    <button type="button" class="secondary outline" aria-label={`Delete “${r.title}”`} onClick={() => (setDeleting(r.id), setDone(null))}>
                      Delete
                    </button>
                  </span>
                )}
              </td>
            )}
          </tr>
        )}
      />
      {canAct && (
        <CannedForm
          key={editing?.id ?? `new-${saves}`}
          bot={bot}
          editing={editing}
          onSaved={async (message) => {
            await list.reload(true);
            setEditing(null);
            setSaves((n) => n + 1);
            setDone(message);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
    </section>
  );
}

function CannedForm({ bot, editing, onSaved, onCancel }: { bot: Bot; editing: CannedResponseView | null; onSaved: (message: string) => Promise<void>; onCancel: () => void }) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [text, setText] = useState(editing?.text ?? '');
  const [quick, setQuick] = useState(editing?.quickReplies.join(', ') ?? '');
  const [errors, setErrors] = useState<{ title?: string; text?: string; quick?: string }>({});
  const action = useAction();
  const first = useRef<HTMLInputElement>(null);
  // Before the browser paints the form, so that keys pressed as it appears already reach its title.
  useLayoutEffect(() => {
    if (editing) first.current?.focus();
  }, [editing]);
  const submit = async (e: Event) => {
    e.preventDefault();
    const quickReplies = quickReplyList(quick);
    const found = {
      title: title.trim() ? undefined : 'Title is required',
      text: text.trim() ? undefined : 'Text is required',
      quick: quickReplies.length > 3 ? 'Quick replies: at most 3' : quickReplies.some((q) => q.length > 20) ? 'Quick replies: each at most 20 characters' : undefined,
    };
    setErrors(found);
    if (found.title || found.text || found.quick) return;
    const body = { title: title.trim(), text, quickReplies };
    const saved = await action.run(() =>
      editing ? api<{ message: string }>('PUT', `/v1/bots/${bot.id}/inbox/canned-responses/${editing.id}`, body) : api<{ message: string }>('POST', `/v1/bots/${bot.id}/inbox/canned-responses`, body),
    );
    if (saved) await onSaved(`${editing ? 'Saved' : 'Added'} “${body.title}”.`);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? `Edit “${editing.title}”` : 'Add a canned response'}>
      <h2>{editing ? `Edit “${editing.title}”` : 'Add a canned response'}</h2>
      <Field id="canned-title" label="Title" error={errors.title}>
        {(aria) => <input {...aria} ref={first} maxLength={100} value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />}
      </Field>
      <Field id="canned-text" label="Text" error={errors.text}>
        {(aria) => <textarea {...aria} rows={3} maxLength={4096} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <InputField id="canned-quick" label="Quick replies (optional, comma-separated, up to 3)" error={errors.quick} value={quick} onValue={setQuick} />
      <ErrorNotice error={action.error} />
      <div class="row-actions">
        <SubmitButton action={action}>{editing ? 'Save' : 'Add canned response'}</SubmitButton>
        {editing && (
          <button type="button" class="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** A fresh Idempotency-Key for a reply: 128 random bits (crypto.randomUUID needs a secure context; a console on plain http has none). */
function replyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
