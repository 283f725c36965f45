import { useState } from 'preact/hooks';
import { Bot, Role, api } from '../api.js';
import { ShownOnce } from '../ui-secret.js';
import { Action, ErrorNotice, Success, useAction, useLoad } from '../ui.js';
import { EmailRoleForm, PeopleTable } from './people.js';

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
      <PeopleTable
        loading={list.loading && !list.data}
        spinner="Loading invitations…"
        rows={list.data?.invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, date: i.expiresAt }))}
        empty={<p>No pending invitation.</p>}
        caption="Pending invitations"
        dateColumn="Expires"
        remove={{
          action: withdraw,
          button: 'Withdraw',
          label: (i) => `Withdraw the invitation of ${i.email}`,
          question: (i) => `Withdraw the invitation of ${i.email}? Its link stops working.`,
          path: (i) => `/v1/bots/${bot.id}/invitations/${i.id}`,
          onDone: (i) => {
            setDone(`Invitation of ${i.email} withdrawn.`);
            void list.reload(true);
          },
        }}
      />
    </section>
  );
}

function Invite({ bot, onInvited }: { bot: Bot; onInvited: (email: string, token: string) => void }) {
  const send = async (email: string, role: Role, action: Action) => {
    const inv = await action.run(() => api<Invitation & { token: string }>('POST', `/v1/bots/${bot.id}/invitations`, { email, role }));
    if (inv) onInvited(inv.email, inv.token);
    return !!inv;
  };
  return (
    <EmailRoleForm
      name="Invite someone without an account"
      idPrefix="invite"
      emailLabel="E-mail to invite"
      emailHint="For someone without an account; the link works once, for 7 days."
      submit="Create invitation link"
      send={send}
    />
  );
}
