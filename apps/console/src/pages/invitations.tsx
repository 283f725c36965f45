import { useState } from 'preact/hooks';
import { Bot, Role, api } from '../api.js';
import { ConfirmButton, DataTable } from '../data-table.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { ShownOnce } from '../ui-secret.js';
import { ErrorNotice, Success, useAction, useLoad, when } from '../ui.js';

interface Invitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

/** Invitations by link, for people without an account yet (admins only): invite, see the pending ones, withdraw. */
export function Invitations({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ invitations: Invitation[] }>('GET', `/v1/bots/${bot.id}/invitations`), [bot.id]);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const withdraw = useAction();
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <Invite
        bot={bot}
        onInvited={(email, token) => {
          // The link is built from this console's own address: the one the invited person can reach.
          setLink({ email, url: `${location.origin}${location.pathname}#/invitation/${token}` });
          void list.reload(true);
        }}
      />
      {link && <ShownOnce title={`Invitation link for ${link.email}`} label="Invitation link" testId="invitation-link" value={link.url} onDismiss={() => setLink(null)} />}
      {done && <Success>{done}</Success>}
      <ErrorNotice error={list.error ?? withdraw.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading invitations…"
        rows={list.data?.invitations}
        empty={<p>No pending invitation.</p>}
        caption="Pending invitations"
        columns={['E-mail', 'Role', 'Expires']}
        actions
        row={(i) => (
          <tr>
            <th scope="row">{i.email}</th>
            <td>{i.role}</td>
            <td>{when(i.expiresAt)}</td>
            <td>
              <ConfirmButton
                action={withdraw}
                label={`Withdraw the invitation of ${i.email}`}
                question={`Withdraw the invitation of ${i.email}? Its link stops working.`}
                call={() => api('DELETE', `/v1/bots/${bot.id}/invitations/${i.id}`)}
                onDone={() => {
                  setDone(`Invitation of ${i.email} withdrawn.`);
                  void list.reload(true);
                }}
              >
                Withdraw
              </ConfirmButton>
            </td>
          </tr>
        )}
      />
    </section>
  );
}

function Invite({ bot, onInvited }: { bot: Bot; onInvited: (email: string, token: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [emailError, setEmailError] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = !email.trim() ? 'E-mail is required' : !/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? 'E-mail must be an e-mail address' : null;
    setEmailError(problem);
    if (problem) return;
    const inv = await action.run(() => api<Invitation & { token: string }>('POST', `/v1/bots/${bot.id}/invitations`, { email: email.trim(), role }));
    if (inv) {
      setEmail('');
      onInvited(inv.email, inv.token);
    }
  };
  return (
    <form onSubmit={submit} noValidate class="inline-form" aria-label="Invite someone without an account">
      <InputField id="invite-email" label="E-mail to invite" hint="For someone without an account; the link works once, for 7 days." error={emailError} type="email" value={email} onValue={setEmail} />
      <Field id="invite-role" label="Role">
        {(aria) => (
          <select {...aria} value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
            <option value="viewer">viewer</option>
            <option value="developer">developer</option>
            <option value="admin">admin</option>
          </select>
        )}
      </Field>
      <SubmitButton action={action}>Create invitation link</SubmitButton>
      <ErrorNotice error={action.error} />
    </form>
  );
}
