import { useState } from 'preact/hooks';
import { Bot, api, roleAtLeast } from '../api.js';
import { DataTable } from '../data-table.js';
import { InputField } from '../form-field.js';
import { ErrorNotice, NotAllowed, PagerNav, useLoad, when } from '../ui.js';

interface Entry {
  id: string;
  at: string;
  actor: string;
  clientId: string | null;
  action: string;
  method: string;
  path: string;
  target: string | null;
  statusCode: number;
  ip: string;
  userAgent: string | null;
}

export function AuditLogPage({ bot }: { bot: Bot }) {
  if (!roleAtLeast(bot.role, 'admin')) return <NotAllowed needed="admin" role={bot.role} />;
  return <AuditLog bot={bot} />;
}

/** What the bot's administrators changed, newest first, read page by page from the API. */
function AuditLog({ bot }: { bot: Bot }) {
  const [draft, setDraft] = useState({ action: '', actor: '' });
  const [filters, setFilters] = useState(draft);
  const [cursors, setCursors] = useState<string[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const list = useLoad(() => {
    const q = new URLSearchParams({ limit: '25' });
    if (filters.action) q.set('action', filters.action);
    if (filters.actor) q.set('actor', filters.actor);
    if (cursor) q.set('cursor', cursor);
    return api<{ entries: Entry[]; nextCursor: string | null }>('GET', `/v1/bots/${bot.id}/audit?${q}`);
  }, [bot.id, filters, cursor]);
  const apply = (e: Event) => {
    e.preventDefault();
    const bad = draft.action && !/^[A-Za-z0-9._-]{1,100}$/.test(draft.action.trim());
    setError(bad ? 'Action must be an action name or its beginning, e.g. api-keys or whatsapp.senders' : undefined);
    if (bad) return;
    setCursors([]);
    setCursor(undefined);
    setFilters({ action: draft.action.trim(), actor: draft.actor.trim() });
  };
  const next = list.data?.nextCursor;
  return (
    <section>
      <p>Every change made through the console or the API by an administrator of {bot.name}: who, what, when, from which address, and how it ended.</p>
      <form onSubmit={apply} noValidate class="filters" aria-label="Filter the audit log">
        <InputField id="a-action" label="Action" placeholder="api-keys" error={error} value={draft.action} onValue={(v) => setDraft({ ...draft, action: v })} />
        <InputField id="a-actor" label="Administrator e-mail" type="email" value={draft.actor} onValue={(v) => setDraft({ ...draft, actor: v })} />
        <button type="submit">Filter</button>
      </form>
      <ErrorNotice error={list.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading the audit log…"
        rows={list.data?.entries}
        empty={<p>No administrator action matches.</p>}
        busy={list.loading}
        testId="audit-log"
        caption={`Audit log of ${bot.name}, newest first`}
        columns={['When', 'Who', 'Action', 'Target', 'Result', 'From']}
        row={(e) => (
          <tr>
            <td>{when(e.at)}</td>
            <td class="break">
              {e.actor}
              {e.clientId && <small> (via OAuth client {e.clientId})</small>}
            </td>
            <td>
              <code>{e.action}</code>
            </td>
            <td class="break">{e.target ?? '—'}</td>
            <td>
              <span class={`badge ${e.statusCode < 400 ? 'ok' : 'muted'}`}>{e.statusCode < 400 ? `Done (${e.statusCode})` : `Refused (${e.statusCode})`}</span>
            </td>
            <td title={e.userAgent ?? undefined}>
              <code>{e.ip}</code>
            </td>
          </tr>
        )}
      >
        <PagerNav
          label="Audit log"
          back={
            cursors.length
              ? () => {
                  const c = [...cursors];
                  setCursor(c.pop() || undefined);
                  setCursors(c);
                }
              : undefined
          }
          forward={
            next
              ? () => {
                  setCursors([...cursors, cursor ?? '']);
                  setCursor(next);
                }
              : undefined
          }
          backText="Newer"
          forwardText="Older"
        />
      </DataTable>
    </section>
  );
}
