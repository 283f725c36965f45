// What the members and invitations of a bot have in common: a form of an e-mail and a role, and a table of
// people by e-mail and role with one button each (remove, withdraw).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Role, api } from '../api.js';
import { ConfirmButton, DataTable } from '../data-table.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { Action, ErrorNotice, useAction, when } from '../ui.js';

/** A person of a bot's table: a member, or an invitation still pending. */
export interface Person {
  id: string;
  email: string;
  role: Role;
  /** The date the table shows (a member's since, an invitation's expiry). */
  date: string;
}

/** The people as a table, e-mail, role and `dateColumn`; with `remove`, each row has a button that asks first, then calls the DELETE route. */
export function PeopleTable(props: {
  loading: boolean;
  spinner: string;
  rows: Person[] | undefined;
  empty?: ComponentChildren;
  caption: string;
  dateColumn: string;
  remove?: { action: Action; button: string; label: (p: Person) => string; question: (p: Person) => string; path: (p: Person) => string; onDone: (p: Person) => void };
  children?: ComponentChildren;
}) {
  const { remove } = props;
  return (
    <DataTable
      loading={props.loading}
      spinner={props.spinner}
      rows={props.rows}
      empty={props.empty}
      caption={props.caption}
      columns={['E-mail', 'Role', props.dateColumn]}
      actions={!!remove}
      row={(p) => (
        <tr>
          <th scope="row">{p.email}</th>
          <td>{p.role}</td>
          <td>{when(p.date)}</td>
          {remove && (
            <td>
              <ConfirmButton action={remove.action} label={remove.label(p)} question={remove.question(p)} call={() => api('DELETE', remove.path(p))} onDone={() => remove.onDone(p)}>
                {remove.button}
              </ConfirmButton>
            </td>
          )}
        </tr>
      )}
    >
      {props.children}
    </DataTable>
  );
}

/** A form of an e-mail and a role; `send` makes the call and answers whether it worked (the e-mail is then cleared). */
export function EmailRoleForm(props: {
  name: string;
  idPrefix: string;
  emailLabel: string;
  emailHint?: string;
  submit: string;
  send: (email: string, role: Role, action: Action) => Promise<boolean>;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [emailError, setEmailError] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = !email.trim() ? 'E-mail is required' : !/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? 'E-mail must be an e-mail address' : null;
    setEmailError(problem);
    if (problem) return;
    if (await props.send(email.trim(), role, action)) setEmail('');
  };
  return (
    <form onSubmit={submit} noValidate class="inline-form" aria-label={props.name}>
      <InputField id={`${props.idPrefix}-email`} label={props.emailLabel} hint={props.emailHint} error={emailError} type="email" value={email} onValue={setEmail} />
      <Field id={`${props.idPrefix}-role`} label="Role">
        {(aria) => (
          <select {...aria} value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
            <option value="viewer">viewer</option>
            <option value="developer">developer</option>
            <option value="admin">admin</option>
          </select>
        )}
      </Field>
      <SubmitButton action={action}>{props.submit}</SubmitButton>
      <ErrorNotice error={action.error} />
    </form>
  );
}
