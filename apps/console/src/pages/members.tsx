import { useState } from 'preact/hooks';
import { Bot, Role, api, roleAtLeast } from '../api.js';
import { ConfirmButton, DataTable } from '../data-table.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, Pager, Success, useAction, useLoad, usePage, when } from '../ui.js';
import { Invitations } from './invitations.js';

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
  const changed = (message: string) => {
    setDone(message);
    void list.reload(true);
  };
  return (
    <section>
      <p>
        People who may administer <strong>{bot.name}</strong>. Admins do everything; developers and viewers less (see the roles in the docs).
      </p>
      {admin ? (
        <SetRole bot={bot} onSaved={changed} />
      ) : (
        <p>
          <em>Only admins change roles; your role is {bot.role}.</em>
        </p>
      )}
      {done && <Success>{done}</Success>}
      <ErrorNotice error={list.error ?? remove.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading members…"
        rows={paged.rows}
        caption={`Members of ${bot.name}`}
        columns={['E-mail', 'Role', 'Since']}
        actions={admin}
        row={(m) => (
          <tr>
            <th scope="row">{m.email}</th>
            <td>{m.role}</td>
            <td>{when(m.since)}</td>
            {admin && (
              <td>
                <ConfirmButton
                  action={remove}
                  label={`Remove ${m.email}`}
                  question={`Remove ${m.email} from ${bot.name}?`}
                  call={() => api('DELETE', `/v1/bots/${bot.id}/members/${m.userId}`)}
                  onDone={() => changed(`${m.email} removed.`)}
                >
                  Remove
                </ConfirmButton>
              </td>
            )}
          </tr>
        )}
      >
        <Pager {...paged} label="Members" />
      </DataTable>
      {admin && <Invitations bot={bot} />}
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
      <InputField id="member-email" label="E-mail of an existing account" error={emailError} type="email" value={email} onValue={setEmail} />
      <Field id="member-role" label="Role">
        {(aria) => (
          <select {...aria} value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
            <option value="viewer">viewer</option>
            <option value="developer">developer</option>
            <option value="admin">admin</option>
          </select>
        )}
      </Field>
      <SubmitButton action={action}>Save role</SubmitButton>
      <ErrorNotice error={action.error} />
    </form>
  );
}
