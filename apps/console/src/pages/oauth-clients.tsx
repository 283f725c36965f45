import { useState } from 'preact/hooks';
import { Bot, api, roleAtLeast } from '../api.js';
import { ShownOnce } from '../ui-secret.js';
import { ConfirmButton, DataTable } from '../data-table.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { EmptyState, ErrorNotice, NotAllowed, Pager, Success, useAction, useLoad, usePage, when } from '../ui.js';
import { ShieldCheck } from '../icons.js';

interface Client {
  id: string;
  client_id: string;
  name: string;
  type: 'confidential' | 'public';
  redirect_uris: string[];
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
}

export function OAuthClientsPage({ bot }: { bot: Bot }) {
  if (!roleAtLeast(bot.role, 'admin')) return <NotAllowed needed="admin" role={bot.role} />;
  return <OAuthClients bot={bot} />;
}

function OAuthClients({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ clients: Client[] }>('GET', `/v1/bots/${bot.id}/oauth-clients`), [bot.id]);
  const [created, setCreated] = useState<(Client & { client_secret?: string }) | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const revoke = useAction();
  const paged = usePage(list.data?.clients ?? [], 10);
  return (
    <section>
      <p>
        Applications that may ask administrators of <strong>{bot.name}</strong> for access (OAuth 2.0 authorization code with PKCE).
      </p>
      <CreateClient
        bot={bot}
        onCreated={(c) => {
          setCreated(c);
          setDone(`Client “${c.name}” registered: ${c.client_id}`);
          void list.reload(true);
        }}
      />
      {done && <Success>{done}</Success>}
      {created?.client_secret && <ShownOnce title={`Secret of “${created.name}”`} label="Client secret" testId="client-secret" value={created.client_secret} onDismiss={() => setCreated(null)} />}
      <ErrorNotice error={list.error ?? revoke.error} />
      <div class="oauth-clients">
        <DataTable
          loading={list.loading && !list.data}
          spinner="Loading clients…"
          rows={paged.rows}
          empty={
            <EmptyState icon={ShieldCheck} title="No OAuth clients yet" testId="empty-oauth-clients">
              Register one above when another application should act for this bot's users (sign-in with PKCE, or a confidential server).
            </EmptyState>
          }
          caption="OAuth clients"
          columns={['Name', 'Client id', 'Type', 'Redirect URIs', 'Scopes', 'State']}
          actions
          row={(c) => (
            <tr>
              <th scope="row">{c.name}</th>
              <td>
                <code>{c.client_id}</code>
              </td>
              <td>{c.type}</td>
              <td>
                {c.redirect_uris.map((u) => (
                  <div>
                    <code>{u}</code>
                  </div>
                ))}
              </td>
              <td>{c.scopes.join(' ')}</td>
              <td>
                {/* The badge is short and the date under it: a one-line "Active since <date and zone>" pushed the Delete buttons off a 1280 px screen. */}
                {c.revoked_at ? <span class="badge muted">Deleted</span> : <span class="badge ok">Active</span>}
                <div>
                  <small>{c.revoked_at ? when(c.revoked_at) : `since ${when(c.created_at)}`}</small>
                </div>
              </td>
              <td>
                {!c.revoked_at && (
                  <ConfirmButton
                    action={revoke}
                    label={`Delete client ${c.name}`}
                    question={`Delete “${c.name}”? Its grants and tokens stop working at once.`}
                    call={() => api('DELETE', `/v1/bots/${bot.id}/oauth-clients/${c.id}`)}
                    onDone={() => {
                      setDone(`Client “${c.name}” deleted.`);
                      void list.reload(true);
                    }}
                  >
                    Delete
                  </ConfirmButton>
                )}
              </td>
            </tr>
          )}
        >
          <Pager {...paged} label="OAuth clients" />
        </DataTable>
      </div>
    </section>
  );
}

function CreateClient({ bot, onCreated }: { bot: Bot; onCreated: (c: Client & { client_secret?: string }) => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'confidential' | 'public'>('confidential');
  const [uris, setUris] = useState('');
  const [errors, setErrors] = useState<{ name?: string; uris?: string }>({});
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const list = uris
      .split(/\s+/)
      .map((u) => u.trim())
      .filter(Boolean);
    const found = {
      name: !name.trim() ? 'Name is required' : undefined,
      uris: list.length === 0 ? 'Redirect URIs: give at least one' : list.length > 10 ? 'Redirect URIs: at most 10' : undefined,
    };
    setErrors(found);
    if (found.name || found.uris) return;
    const c = await action.run(() => api<Client & { client_secret?: string }>('POST', `/v1/bots/${bot.id}/oauth-clients`, { name: name.trim(), type, redirect_uris: list }));
    if (c) {
      setName('');
      setUris('');
      onCreated(c);
    }
  };
  return (
    <details>
      <summary role="button" class="secondary outline">
        Register a client
      </summary>
      <form onSubmit={submit} noValidate aria-label="Register an OAuth client">
        <div class="grid">
          <InputField id="client-name" label="Name" error={errors.name} value={name} onValue={setName} />
          <Field id="client-type" label="Type" hint="Confidential: a server keeping a secret. Public: a browser or mobile app (PKCE, no secret).">
            {(a) => (
              <select {...a} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as 'confidential' | 'public')}>
                <option value="confidential">confidential</option>
                <option value="public">public</option>
              </select>
            )}
          </Field>
        </div>
        <Field id="client-uris" label="Redirect URIs" error={errors.uris} hint="One per line; matched exactly.">
          {(a) => <textarea {...a} rows={3} value={uris} onInput={(e) => setUris((e.target as HTMLTextAreaElement).value)} />}
        </Field>
        <SubmitButton action={action}>Register client</SubmitButton>
        <ErrorNotice error={action.error} />
      </form>
    </details>
  );
}
