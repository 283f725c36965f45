import { useState } from 'preact/hooks';
import { Bot, Role, api, roleAtLeast } from '../api.js';
import { ErrorNotice, Field, Pager, Spinner, Success, TableWrap, useAction, useLoad, usePage, when } from '../ui.js';

interface Member {
  userId: string;
  email: string;
  role: Role;
  since: string;
}

export function MembersPage({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ members: Member[] }>('GET', `/v1/bots/${bot.id}/members`), [bot.id]);
  const [done, setDone] = useState<string | null>(null);
  const remove = useAction();
  const members = list.data?.members ?? [];
  const paged = usePage(members, 10);
  const admin = roleAtLeast(bot.role, 'admin');
  return (
    <section>
      <p>
        People who may administer <strong>{bot.name}</strong>. Admins do everything; developers and viewers less (see the roles in the docs).
      </p>
      {admin ? (
        <SetRole
          bot={bot}
          onSaved={(m) => {
            setDone(m);
            void list.reload(true);
          }}
        />
      ) : (
        <p>
          <em>Only admins change roles; your role is {bot.role}.</em>
        </p>
      )}
      {done && <Success>{done}</Success>}
      <ErrorNotice error={list.error ?? remove.error} />
      {list.loading && !list.data ? (
        <Spinner label="Loading members…" />
      ) : (
        <>
          <TableWrap>
            <table class="striped">
              <caption class="visually-hidden">Members of {bot.name}</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Since</th>
                  {admin && (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {paged.rows.map((m) => (
                  <tr>
                    <th scope="row">{m.email}</th>
                    <td>{m.role}</td>
                    <td>{when(m.since)}</td>
                    {admin && (
                      <td>
                        <button
                          type="button"
                          class="secondary outline small"
                          aria-label={`Remove ${m.email}`}
                          disabled={remove.busy}
                          onClick={async () => {
                            if (!confirm(`Remove ${m.email} from ${bot.name}?`)) return;
                            const ok = await remove.run(() => api('DELETE', `/v1/bots/${bot.id}/members/${m.userId}`));
                            if (ok) {
                              setDone(`${m.email} removed.`);
                              void list.reload(true);
                            }
                          }}
                        >
                          Remove
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager {...paged} label="Members" />
        </>
      )}
    </section>
  );
}

function SetRole({ bot, onSaved }: { bot: Bot; onSaved: (message: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [emailError, setEmailError] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = !email.trim() ? 'E-mail is required' : !/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? 'E-mail must be an e-mail address' : null;
    setEmailError(problem);
    if (problem) return;
    const a = await action.run(() => api<{ message: string }>('PUT', `/v1/bots/${bot.id}/members`, { email: email.trim(), role }));
    if (a) {
      setEmail('');
      onSaved(a.message);
    }
  };
  return (
    <form onSubmit={submit} noValidate class="inline-form" aria-label="Add a member or change a role">
      <Field id="member-email" label="E-mail of an existing account" error={emailError}>
        {(aria) => <input {...aria} type="email" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />}
      </Field>
      <Field id="member-role" label="Role">
        {(aria) => (
          <select {...aria} value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
            <option value="viewer">viewer</option>
            <option value="developer">developer</option>
            <option value="admin">admin</option>
          </select>
        )}
      </Field>
      <button type="submit" aria-busy={action.busy} disabled={action.busy}>
        Save role
      </button>
      <ErrorNotice error={action.error} />
    </form>
  );
}
