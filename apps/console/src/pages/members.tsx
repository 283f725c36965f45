import { useState } from 'preact/hooks';
import { Bot, Role, api, roleAtLeast } from '../api.js';
import { Action, ErrorNotice, Pager, Success, useAction, useLoad, usePage } from '../ui.js';
import { Invitations } from './invitations.js';
import { EmailRoleForm, PeopleTable } from './people.js';

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
      <PeopleTable
        loading={list.loading && !list.data}
        spinner="Loading members…"
        rows={paged.rows.map((m) => ({ id: m.userId, email: m.email, role: m.role, date: m.since }))}
        caption={`Members of ${bot.name}`}
        dateColumn="Since"
        remove={
          admin
            ? {
                action: remove,
                button: 'Remove',
                label: (m) => `Remove ${m.email}`,
                question: (m) => `Remove ${m.email} from ${bot.name}?`,
                path: (m) => `/v1/bots/${bot.id}/members/${m.id}`,
                onDone: (m) => changed(`${m.email} removed.`),
              }
            : undefined
        }
      >
        <Pager {...paged} label="Members" />
      </PeopleTable>
      {admin && <Invitations bot={bot} />}
    </section>
  );
}

function SetRole({ bot, onSaved }: { bot: Bot; onSaved: (message: string) => void }) {
  const send = async (email: string, role: Role, action: Action) => {
    const a = await action.run(() => api<{ message: string }>('PUT', `/v1/bots/${bot.id}/members`, { email, role }));
    if (a) onSaved(a.message);
    return !!a;
  };
  return <EmailRoleForm name="Add a member or change a role" idPrefix="member" emailLabel="E-mail of an existing account" submit="Save role" send={send} />;
}
