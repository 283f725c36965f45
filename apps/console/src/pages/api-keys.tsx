import { useRef, useState } from 'preact/hooks';
import type { ApiKeyView, CreatedApiKeyResponse } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { ShownOnce } from '../ui-secret.js';
import { DataTable } from '../data-table.js';
import { InputField, SubmitButton } from '../form-field.js';
import { EmptyState, ErrorNotice, NotAllowed, Pager, Success, useAction, useLoad, usePage, when } from '../ui.js';
import { KeyRound } from '../icons.js';

export function ApiKeysPage({ bot }: { bot: Bot }) {
  if (!roleAtLeast(bot.role, 'admin')) {
    return <NotAllowed needed="admin" role={bot.role} />;
  }
  return <ApiKeys bot={bot} />;
}

function ApiKeys({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ keys: ApiKeyView[] }>('GET', `/v1/bots/${bot.id}/api-keys`), [bot.id]);
  const [created, setCreated] = useState<CreatedApiKeyResponse | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const paged = usePage(list.data?.keys ?? [], 10);

  return (
    <section>
      <p>
        Keys let your back end call the API for <strong>{bot.name}</strong> (the carousel trigger takes one in <code>x-api-key</code>).
      </p>
      <GenerateKey
        bot={bot}
        onCreated={(k) => {
          setCreated(k);
          setDone(null);
          void list.reload(true);
        }}
      />
      {created && <ShownOnce title={`New key “${created.name}”`} label="New API key" testId="new-key" value={created.key} onDismiss={() => setCreated(null)} />}
      {done && <Success>{done}</Success>}
      <h2>Keys</h2>
      <ErrorNotice error={list.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading keys…"
        rows={paged.rows}
        empty={
          <EmptyState icon={KeyRound} title="No API keys yet" testId="empty-api-keys">
            Generate one above: your back end sends it in <code>x-api-key</code> to trigger carousels.
          </EmptyState>
        }
        busy={list.loading}
        caption={`API keys of ${bot.name}`}
        columns={['Name', 'Prefix', 'Created', 'Last used', 'State']}
        actions
        row={(k) => (
          <KeyRow
            key={k.id}
            k={k}
            bot={bot}
            onRevoked={(name) => {
              setDone(`Key “${name}” revoked: every gateway refuses it now.`);
              void list.reload(true);
            }}
          />
        )}
      >
        <Pager {...paged} label="API keys" />
      </DataTable>
    </section>
  );
}

function GenerateKey({ bot, onCreated }: { bot: Bot; onCreated: (k: CreatedApiKeyResponse) => void }) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const trimmed = name.trim();
    const problem = !trimmed ? 'Name is required' : trimmed.length > 100 ? 'Name must be at most 100 characters' : null;
    setNameError(problem);
    if (problem) return;
    const k = await action.run(() => api<CreatedApiKeyResponse>('POST', `/v1/bots/${bot.id}/api-keys`, { name: trimmed }));
    if (k) {
      setName('');
      onCreated(k);
    }
  };
  return (
    <form onSubmit={submit} noValidate class="inline-form" aria-label="Generate a new key">
      <InputField id="key-name" label="Key name" error={nameError} hint="What the key is for, e.g. “CRM production”." name="name" maxLength={100} value={name} onValue={setName} />
      <SubmitButton action={action}>Generate New Key</SubmitButton>
      <ErrorNotice error={action.error} />
    </form>
  );
}

function KeyRow({ k, bot, onRevoked }: { k: ApiKeyView; bot: Bot; onRevoked: (name: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const action = useAction();
  const revoke = async () => {
    const ok = await action.run(() => api('DELETE', `/v1/bots/${bot.id}/api-keys/${k.id}`));
    if (ok) {
      dialog.current?.close();
      onRevoked(k.name);
    }
  };
  return (
    <tr>
      <th scope="row">{k.name}</th>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>{when(k.createdAt)}</td>
      <td>{k.lastUsedAt ? when(k.lastUsedAt) : 'Never'}</td>
      <td>{k.revokedAt ? <span class="badge muted">Revoked {when(k.revokedAt)}</span> : <span class="badge ok">Active</span>}</td>
      <td>
        {!k.revokedAt && (
          <>
            <button type="button" class="secondary outline small" onClick={() => dialog.current?.showModal()} aria-label={`Revoke key ${k.name}`}>
              Revoke
            </button>
            <dialog ref={dialog} aria-labelledby={`revoke-${k.id}`}>
              <article>
                <h2 id={`revoke-${k.id}`}>Revoke “{k.name}”?</h2>
                <p>
                  Every call made with <code>{k.prefix}…</code> will be refused at once, by every gateway. This cannot be undone.
                </p>
                <ErrorNotice error={action.error} />
                <footer>
                  <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
                    Cancel
                  </button>
                  <button type="button" class="danger" aria-busy={action.busy} disabled={action.busy} onClick={revoke}>
                    Revoke key
                  </button>
                </footer>
              </article>
            </dialog>
          </>
        )}
      </td>
    </tr>
  );
}
