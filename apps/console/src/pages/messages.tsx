import { useEffect, useRef, useState } from 'preact/hooks';
import { Bot, api, download } from '../api.js';
import { href } from '../router.js';
import { DataTable } from '../data-table.js';
import { Field, InputField } from '../form-field.js';
import { EmptyState, ErrorNotice, PagerNav, asApiError, useAction, when, zoneName } from '../ui.js';
import { Activity } from '../icons.js';
import type { ApiError } from '../api.js';
import type { MessageLiveEvent, MessageLogEntry, MessageStatusResponse } from '@platform/contracts/views';
import { MESSAGE_STATUSES } from '@platform/contracts/views';
import { LiveMode, useMessageEvents } from '../live.js';

/** A message of the log (the detail page's answer has no template or sender). */
export type MessageEntry = MessageStatusResponse & Partial<Pick<MessageLogEntry, 'templateName' | 'sender'>>;
interface Filters {
  status: string;
  recipient: string;
  /** A msgId or a wamid.… */
  id: string;
  since: string;
  until: string;
}

const STATUSES = MESSAGE_STATUSES;
const POLL_MS = 2000;
/** Order in which a message moves; an event never moves a row back (events of two sources may cross). */
const RANK: Record<string, number> = { queued: 0, processing: 1, sent: 2, failed: 3, delivered: 4, read: 5 };

/** The row after a live event: status and its time, or the error of a failed message. */
function applied(m: MessageEntry, e: MessageLiveEvent): MessageEntry {
  if ((RANK[e.status] ?? 0) <= (RANK[m.status] ?? 0)) return m;
  const next: MessageEntry = { ...m, status: e.status, updatedAt: e.at };
  if (e.status === 'sent') next.sentAt = e.at;
  if (e.status === 'delivered') next.deliveredAt = e.at;
  if (e.status === 'read') next.readAt = e.at;
  if (e.status === 'failed') next.lastError = e.error ?? null;
  return next;
}

/** A message just queued, as the log shows it until the worker's first attempt gives it a row. */
function queuedEntry(bot: Bot, e: MessageLiveEvent): MessageEntry {
  return {
    msgId: e.msgId,
    botId: bot.id,
    channel: 'whatsapp',
    recipient: e.recipient ?? '',
    status: 'queued',
    attempts: 0,
    providerMessageId: null,
    lastError: null,
    createdAt: e.at,
    updatedAt: e.at,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
  };
}

function matches(f: Filters, m: MessageEntry): boolean {
  if (f.status && f.status !== m.status) return false;
  if (f.recipient && !m.recipient.startsWith(f.recipient.replace(/[\s()+-]/g, ''))) return false;
  if (f.id && f.id !== m.msgId && f.id !== m.providerMessageId) return false;
  if (f.since && new Date(m.createdAt) < new Date(f.since)) return false;
  if (f.until && new Date(m.createdAt) >= new Date(f.until)) return false;
  return true;
}

const LIVE_TEXT: Record<LiveMode, string> = {
  off: 'Older page: not updated live.',
  connecting: 'Connecting to live updates…',
  stream: 'Live: new messages and status changes show as they happen.',
  polling: 'Live updates are unavailable; reading again every 2 seconds and reconnecting.',
};

export function MessagesPage({ bot }: { bot: Bot }) {
  const [draft, setDraft] = useState<Filters>({ status: '', recipient: '', id: '', since: '', until: '' });
  const [filters, setFilters] = useState<Filters>(draft);
  const [errors, setErrors] = useState<Partial<Filters>>({});
  const zone = zoneName();
  const [pages, setPages] = useState<string[]>([]); // cursors of the pages before the current one
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [data, setData] = useState<{ messages: MessageEntry[]; nextCursor: string | null } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  // Messages announced as queued that have no row yet (the list API reads rows): kept on top across reads.
  const queued = useRef(new Map<string, MessageEntry>());
  const reads = useRef(0);
  const shown = useRef(data);
  shown.current = data;
  const later = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const filterQuery = () => {
    const q = new URLSearchParams();
    if (filters.status) q.set('status', filters.status);
    if (filters.recipient) q.set('recipient', filters.recipient.replace(/[\s()-]/g, ''));
    if (filters.id) q.set('id', filters.id);
    if (filters.since) q.set('since', new Date(filters.since).toISOString());
    if (filters.until) q.set('until', new Date(filters.until).toISOString());
    return q;
  };
  const query = () => {
    const q = filterQuery();
    if (cursor) q.set('cursor', cursor);
    q.set('limit', '20');
    return q.toString();
  };
  const exporting = useAction();

  const load = async (quiet: boolean) => {
    const n = ++reads.current;
    if (!quiet) setLoading(true);
    try {
      const d = await api<{ messages: MessageEntry[]; nextCursor: string | null }>('GET', `/v1/bots/${bot.id}/messages?${query()}`);
      if (n !== reads.current) return;
      const seen = new Set(d.messages.map((m) => m.msgId));
      for (const id of seen) queued.current.delete(id);
      const waiting = cursor ? [] : [...queued.current.values()].filter((m) => matches(filters, m));
      setData({ ...d, messages: [...waiting, ...d.messages] });
      setError(null);
    } catch (err) {
      if (n === reads.current) setError(asApiError(err));
    } finally {
      if (n === reads.current) setLoading(false);
    }
  };
  /** One quiet read soon, however many events ask for it (attempts, provider id and new rows come from the API). */
  const readSoon = () => {
    if (later.current) return;
    later.current = setTimeout(() => {
      later.current = undefined;
      void load(true);
    }, 500);
  };

  const onEvent = (e: MessageLiveEvent) => {
    if (e.status === 'queued') {
      const entry = queuedEntry(bot, e);
      if (!matches(filters, entry)) return;
      queued.current.set(e.msgId, entry);
      setData((d) => (d && !d.messages.some((m) => m.msgId === e.msgId) ? { ...d, messages: [entry, ...d.messages] } : d));
      return;
    }
    queued.current.delete(e.msgId);
    const known = shown.current?.messages.some((m) => m.msgId === e.msgId) ?? false;
    if (known) setData((d) => d && { ...d, messages: d.messages.map((m) => (m.msgId === e.msgId ? applied(m, e) : m)) });
    if (!known || e.status === 'sent' || e.status === 'failed') readSoon();
  };

  const live = useMessageEvents(bot.id, !cursor, onEvent, () => void load(true));

  useEffect(() => {
    queued.current.clear();
    void load(false);
    return () => {
      reads.current++;
      clearTimeout(later.current);
      later.current = undefined;
    };
  }, [bot.id, filters, cursor]);

  // Only while the stream is down: the newest page is read again every 2 s (older pages do not change order).
  useEffect(() => {
    if (live !== 'polling') return;
    const timer = setInterval(() => document.visibilityState === 'visible' && void load(true), POLL_MS);
    return () => clearInterval(timer);
  }, [live, bot.id, filters, cursor]);

  const apply = (e: Event) => {
    e.preventDefault();
    const found: Partial<Filters> = {};
    if (draft.recipient && !/^\+?[\d\s()-]{1,20}$/.test(draft.recipient)) found.recipient = 'Recipient must be a phone number or its first digits';
    if (draft.since && draft.until && new Date(draft.since) >= new Date(draft.until)) found.until = 'To must be after From';
    const id = draft.id.trim();
    if (id && !/^(?:[0-9a-fA-F-]{36}|wamid\.\S+)$/.test(id)) found.id = 'Message id must be a msgId (36 characters) or a WhatsApp id (wamid.…)';
    setErrors(found);
    if (Object.keys(found).length) return;
    setPages([]);
    setCursor(undefined);
    setFilters({ ...draft, id });
  };
  const set = (k: keyof Filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });
  const newer =
    pages.length > 0
      ? () => {
          const p = [...pages];
          const prev = p.pop();
          setPages(p);
          setCursor(prev || undefined);
        }
      : undefined;
  const next = data?.nextCursor;
  const older = next
    ? () => {
        setPages([...pages, cursor ?? '']);
        setCursor(next);
      }
    : undefined;

  return (
    <section>
      <h1>Messages</h1>
      <form onSubmit={apply} noValidate class="filters message-filters" aria-label="Filter messages">
        <Field id="f-status" label="Status">
          {(aria) => (
            <select {...aria} value={draft.status} onChange={set('status')}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <InputField id="f-recipient" label="Recipient" error={errors.recipient} inputMode="tel" placeholder="+91…" value={draft.recipient} onInput={set('recipient')} />
        <InputField id="f-id" label="Message id" error={errors.id} placeholder="msgId or wamid.…" value={draft.id} onInput={set('id')} />
        {/* The fields are read in the browser's time zone, the one the table's times name: the labels say which. */}
        <InputField id="f-since" label={`From (${zone})`} type="datetime-local" value={draft.since} onInput={set('since')} />
        <InputField id="f-until" label={`To (${zone})`} error={errors.until} type="datetime-local" value={draft.until} onInput={set('until')} />
        <button type="submit">Filter</button>
        <button
          type="button"
          class="secondary"
          aria-busy={exporting.busy}
          disabled={exporting.busy}
          onClick={() => void exporting.run(() => download(`/v1/bots/${bot.id}/messages/export.csv?${filterQuery()}`, 'messages.csv'))}
        >
          Export CSV
        </button>
      </form>
      <ErrorNotice error={exporting.error} />
      <p class="live" role="status" data-live={live}>
        {LIVE_TEXT[live]}
      </p>
      <ErrorNotice error={error} />
      <DataTable
        loading={loading && !data}
        spinner="Loading messages…"
        rows={data?.messages}
        empty={
          filters.status || filters.recipient || filters.since || filters.until ? (
            <EmptyState icon={Activity} title="No message matches these filters" testId="empty-messages">
              Widen the time range or clear a filter.
            </EmptyState>
          ) : (
            <EmptyState icon={Activity} title="No messages yet" testId="empty-messages" next={<a href={href('bots', bot.id, 'whatsapp', 'test-carousel')}>Send a test carousel</a>}>
              Messages appear here, live, once one is triggered: from your back end with an API key, or from the console's test form.
            </EmptyState>
          )
        }
        busy={loading}
        testId="message-log"
        caption={`Messages of ${bot.name}, newest first`}
        columns={['Status', 'Recipient', 'Sender', 'Created', 'Template', 'Attempts', 'Error']}
        row={(m) => (
          <tr data-msg-id={m.msgId}>
            <td>
              <span class={`badge status-${m.status}`} data-testid="status">
                {m.status}
              </span>
            </td>
            <td>
              <a href={href('bots', bot.id, 'messages', m.msgId)} aria-label={`Message to +${m.recipient}, ${when(m.createdAt)}`}>
                +{m.recipient}
              </a>
            </td>
            <td>{m.sender ? `+${m.sender}` : '—'}</td>
            <td>{when(m.createdAt)}</td>
            <td>{m.templateName ?? '—'}</td>
            <td>{m.attempts}</td>
            <td class="error-cell" data-testid="error" title={m.lastError?.text ?? undefined}>
              {m.lastError ? [m.lastError.code, m.lastError.text].filter(Boolean).join(': ') : '—'}
            </td>
          </tr>
        )}
      >
        <PagerNav label="Message" back={newer} forward={older} backText="Newer" forwardText="Older" />
      </DataTable>
    </section>
  );
}
