import { useEffect, useState } from 'preact/hooks';
import { Bot, api } from '../api.js';
import { href } from '../router.js';
import { ErrorNotice, Field, Spinner, asApiError, when } from '../ui.js';
import type { ApiError } from '../api.js';
import type { MessageLogEntry, MessageStatusResponse } from '@platform/contracts/views';

/** A message of the log (the detail page's answer has no template or sender). */
export type MessageEntry = MessageStatusResponse & Partial<Pick<MessageLogEntry, 'templateName' | 'sender'>>;
interface Filters {
  status: string;
  recipient: string;
  since: string;
  until: string;
}

const STATUSES = ['queued', 'processing', 'sent', 'delivered', 'read', 'failed'];
const LIVE_MS = 2000;

export function MessagesPage({ bot }: { bot: Bot }) {
  const [draft, setDraft] = useState<Filters>({ status: '', recipient: '', since: '', until: '' });
  const [filters, setFilters] = useState<Filters>(draft);
  const [errors, setErrors] = useState<Partial<Filters>>({});
  const [pages, setPages] = useState<string[]>([]); // cursors of the pages before the current one
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [data, setData] = useState<{ messages: MessageEntry[]; nextCursor: string | null } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);

  const query = () => {
    const q = new URLSearchParams();
    if (filters.status) q.set('status', filters.status);
    if (filters.recipient) q.set('recipient', filters.recipient.replace(/[\s()-]/g, ''));
    if (filters.since) q.set('since', new Date(filters.since).toISOString());
    if (filters.until) q.set('until', new Date(filters.until).toISOString());
    if (cursor) q.set('cursor', cursor);
    q.set('limit', '20');
    return q.toString();
  };

  useEffect(() => {
    let stopped = false;
    const load = async (quiet: boolean) => {
      if (!quiet) setLoading(true);
      try {
        const d = await api<{ messages: MessageEntry[]; nextCursor: string | null }>('GET', `/v1/bots/${bot.id}/messages?${query()}`);
        if (!stopped) {
          setData(d);
          setError(null);
        }
      } catch (err) {
        if (!stopped) setError(asApiError(err));
      } finally {
        if (!stopped) setLoading(false);
      }
    };
    void load(false);
    // Live while open: the newest page is read again every 2 s (older pages do not change order).
    const timer = cursor ? undefined : setInterval(() => document.visibilityState === 'visible' && void load(true), LIVE_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [bot.id, filters, cursor]);

  const apply = (e: Event) => {
    e.preventDefault();
    const found: Partial<Filters> = {};
    if (draft.recipient && !/^\+?[\d\s()-]{1,20}$/.test(draft.recipient)) found.recipient = 'Recipient must be a phone number or its first digits';
    if (draft.since && draft.until && new Date(draft.since) >= new Date(draft.until)) found.until = 'To must be after From';
    setErrors(found);
    if (Object.keys(found).length) return;
    setPages([]);
    setCursor(undefined);
    setFilters(draft);
  };
  const set = (k: keyof Filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });

  return (
    <section>
      <h1>Messages</h1>
      <form onSubmit={apply} noValidate class="filters" aria-label="Filter messages">
        <Field id="f-status" label="Status">
          {(aria) => (
            <select {...aria} value={draft.status} onChange={set('status')}>
              <option value="">Any</option>
              {STATUSES.map((s) => <option value={s}>{s}</option>)}
            </select>
          )}
        </Field>
        <Field id="f-recipient" label="Recipient" error={errors.recipient}>
          {(aria) => <input {...aria} inputMode="tel" placeholder="+91…" value={draft.recipient} onInput={set('recipient')} />}
        </Field>
        <Field id="f-since" label="From">{(aria) => <input {...aria} type="datetime-local" value={draft.since} onInput={set('since')} />}</Field>
        <Field id="f-until" label="To" error={errors.until}>{(aria) => <input {...aria} type="datetime-local" value={draft.until} onInput={set('until')} />}</Field>
        <button type="submit">Filter</button>
      </form>
      <p class="live" role="status">{cursor ? 'Older page: not updated live.' : 'Live: updates every 2 seconds.'}</p>
      <ErrorNotice error={error} />
      {loading && !data ? (
        <Spinner label="Loading messages…" />
      ) : data && data.messages.length === 0 ? (
        <p>No messages match.</p>
      ) : data ? (
        <>
          <div class="table-wrap">
            <table class="striped" aria-busy={loading} data-testid="message-log">
              <caption class="visually-hidden">Messages of {bot.name}, newest first</caption>
              <thead>
                <tr><th scope="col">Status</th><th scope="col">Recipient</th><th scope="col">Created</th><th scope="col">Template</th><th scope="col">Attempts</th></tr>
              </thead>
              <tbody>
                {data.messages.map((m) => (
                  <tr data-msg-id={m.msgId}>
                    <td><span class={`badge status-${m.status}`} data-testid="status">{m.status}</span></td>
                    <td><a href={href('bots', bot.id, 'messages', m.msgId)} aria-label={`Message to +${m.recipient}, ${when(m.createdAt)}`}>+{m.recipient}</a></td>
                    <td>{when(m.createdAt)}</td>
                    <td>{m.templateName ?? '—'}</td>
                    <td>{m.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label="Message pages" class="pager">
            <button type="button" class="secondary" disabled={pages.length === 0} onClick={() => { const p = [...pages]; const prev = p.pop(); setPages(p); setCursor(prev || undefined); }}>Newer</button>
            <button type="button" class="secondary" disabled={!data.nextCursor} onClick={() => { setPages([...pages, cursor ?? '']); setCursor(data.nextCursor!); }}>Older</button>
          </nav>
        </>
      ) : null}
    </section>
  );
}
