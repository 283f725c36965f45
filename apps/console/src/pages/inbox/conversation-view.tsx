import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { InboxConversationResponse, InboxMessageView, InboxMessagesResponse } from '@platform/contracts/views';
import { Bot, api, me, roleAtLeast } from '../../api.js';
import { DataTable } from '../../data-table.js';
import { href } from '../../router.js';
import { ErrorNotice, Success, useAction, useLoad, when } from '../../ui.js';
import { count } from '../../count.js';
import { usePoll, pollError, RefreshFailed } from './refresh.js';
import { STATUS_TEXT, userName, messageText, senderLabel } from './display.js';
import { ReplyForm, HandBack, NoteForm, Assign } from './conversation-actions.js';
import { TranscriptFile } from './transcript-file.js';

/** How many older messages one press of "Show older messages" reads. */
const OLDER_PAGE = 100;

/**
 * The most messages the page holds (and draws) once older ones were loaded: the view's newest 200 and one
 * page of older ones. Past it, the oldest go while the reader reads at the end, so a conversation left open
 * for a working day stays as light as a fresh one; "Show older messages" reads them again.
 */
export const HELD_MESSAGES = 200 + OLDER_PAGE;

/** The transcript the reader has: the view's newest messages and, once asked for, older ones before them. */
interface Transcript {
  messages: InboxMessageView[];
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

export function ConversationView({ bot, id }: { bot: Bot; id: string }) {
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
  const older = useAction();
  const list = useRef<HTMLOListElement>(null);
  /**
   * Whether the reader reads at the transcript's end (its last message on screen, or the page scrolled past it),
   * as of their own last scroll: the page does not follow new messages down, so they come below and the reader
   * is still at the end they chose. Pressing "Show older messages" is reading back, until they scroll to the end.
   */
  const atEnd = useRef(true);
  /** Where the page's own scroll (keeping the reader's place) left it: the scroll event that follows is not the reader's. */
  const ownScroll = useRef<number | null>(null);
  useEffect(() => {
    const onScroll = () => {
      const last = list.current?.lastElementChild;
      if (!last || (ownScroll.current !== null && Math.abs(window.scrollY - ownScroll.current) < 1)) return;
      ownScroll.current = null;
      atEnd.current = last.getBoundingClientRect().top < window.innerHeight;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const [olderSaid, setOlderSaid] = useState('');
  const moreButton = useRef<HTMLButtonElement>(null);
  /** The message the reader had first before older ones went in above it (or the oldest went), and where it was on screen. */
  const anchor = useRef<{ id: string; top: number; focused: boolean } | null>(null);
  /**
   * `drawn` (what this render drew) without its oldest messages past HELD_MESSAGES, of those wholly above the
   * screen only (never one the reader has in view); null when none go. The first message kept is the anchor
   * that keeps the reader's place as the page gets shorter above it.
   */
  const bounded = (drawn: Transcript): Transcript | null => {
    const items = list.current?.children;
    const excess = drawn.messages.length - HELD_MESSAGES;
    if (!items || excess <= 0 || items.length !== drawn.messages.length) return null;
    let drop = 0;
    while (drop < excess && items[drop]!.getBoundingClientRect().bottom <= 0) drop++;
    const first = items[drop] as HTMLElement | undefined;
    if (!drop || !first || first.dataset.id !== drawn.messages[drop]!.id) return null;
    anchor.current = { id: first.dataset.id, top: first.getBoundingClientRect().top, focused: false };
    return { messages: drawn.messages.slice(drop), older: true };
  };
  useEffect(() => {
    if (!data) return;
    const drawn = keptNow.current;
    // Not while an older page is being read: it goes in above the first message shown.
    const trimmed = drawn && atEnd.current && !older.busy ? bounded(follow(drawn, data)) : null;
    setKept((k) => (trimmed && k === drawn ? trimmed : k && follow(k, data)));
  }, [data]);
  const showOlder = async () => {
    const first = transcript?.messages[0];
    if (!first || older.busy) return;
    atEnd.current = false;
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
        ? `${count(page.messages.length, 'older message')} shown above.`
        : `${count(page.messages.length, 'older message')} shown above: the conversation's first message is the first now.`,
    );
  };
  useLayoutEffect(() => {
    const a = anchor.current;
    if (!a) return;
    anchor.current = null;
    // Older messages went in above what the reader was reading, or the oldest went: it stays where it was on screen.
    const el = list.current?.querySelector<HTMLElement>(`[data-id="${a.id}"]`);
    if (el) window.scrollBy(0, el.getBoundingClientRect().top - a.top);
    ownScroll.current = window.scrollY;
    // The button went away with the last page: focus moves to the transcript rather than to the page's start.
    if (a.focused && !moreButton.current) list.current?.focus({ preventScroll: true });
  });
  const lastSeen = data?.messages[data.messages.length - 1]?.id;
  useEffect(() => {
    // What this member sees is read, for them only (up to the newest message shown: one that came after stays unread).
    if (lastSeen && document.visibilityState === 'visible') void api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/read`, { messageId: lastSeen }).catch(() => undefined);
  }, [lastSeen]);

  // After taking over, the reply's message field takes focus (once the reply form is there): the button pressed is gone.
  const [toReply, setToReply] = useState(false);
  const act = async (call: () => Promise<{ message: string }>) => {
    const answer = await action.run(call);
    if (answer) {
      setDone(answer.message);
      void view.reload(true);
    }
    return !!answer;
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
        <button type="button" disabled={action.busy} onClick={async () => setToReply(await act(() => api('POST', `/v1/bots/${bot.id}/inbox/conversations/${id}/take-over`)))}>
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
                <strong>{senderLabel(m.sentBy)}</strong> <small>{when(m.createdAt)}</small>
                <br />
                {messageText(m)}
                <TranscriptFile bot={bot} conversationId={id} message={m} />
              </li>
            ))}
          </ol>
          {canAct && withAgent && <ReplyForm bot={bot} id={id} windowOpen={c.replyWindowOpen} onSent={() => void view.reload(true)} focus={toReply} onFocused={() => setToReply(false)} />}
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
        </div>
      </div>
      {/* Below both columns, across the page: its five columns (a time that names its zone) do not fit beside the transcript. */}
      <section class="inbox-trace" aria-labelledby="trace-title">
        <h2 id="trace-title">Bot trace</h2>
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
      </section>
    </section>
  );
}
