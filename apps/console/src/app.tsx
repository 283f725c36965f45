import { useEffect, useState } from 'preact/hooks';
import { Account, Bot, me, refresh, signOut, whenSignedOut } from './api.js';
import { dropLocalCopies, hasLocalCopies } from './pages/builder/unsaved.js';
import { go, href, useRoute } from './router.js';
import { NavLinks, Tab, Tabs, tabOf } from './tabs.js';
import { Spinner } from './ui.js';
import { Icon } from './icon.js';
import { BotIcon } from './icons.js';
import { SignIn } from './pages/sign-in.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { PushPage } from './pages/push.js';
import { MessagesPage } from './pages/messages.js';
import { MessageDetailPage } from './pages/message-detail.js';
import { MembersPage } from './pages/members.js';
import { WhatsAppPage } from './pages/whatsapp.js';
import { WebhookPage } from './pages/webhook.js';
import { OAuthClientsPage } from './pages/oauth-clients.js';
import { InboxPage } from './pages/inbox/inbox-page.js';
import { OverviewPage } from './pages/overview.js';
import { CampaignsPage } from './pages/campaigns.js';
import { BuilderPage } from './pages/builder/lazy.js';
import { AuditLogPage } from './pages/audit-log.js';
import { AccountPage } from './pages/account.js';
import { InvitationPage } from './pages/invitation.js';

type Session = { state: 'checking' } | { state: 'signed-out'; reason?: string } | { state: 'signed-in'; account: Account };

const SECTIONS: Tab[] = [
  { path: 'overview', label: 'Overview' },
  { path: 'messages', label: 'Messages' },
  { path: 'inbox', label: 'Inbox' },
  { path: 'builder', label: 'Builder' },
  { path: 'whatsapp', label: 'WhatsApp' },
  { path: 'campaigns', label: 'Campaigns' },
  { path: 'push', label: 'Push' },
  { path: 'settings', label: 'Settings' },
];

const SETTINGS: Tab[] = [
  { path: 'api-keys', label: 'API Keys' },
  { path: 'webhook', label: 'Webhook' },
  { path: 'oauth-clients', label: 'OAuth clients' },
  { path: 'members', label: 'Members' },
  { path: 'audit', label: 'Audit log' },
  { path: 'account', label: 'Your account' },
];

export function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const route = useRoute();

  const load = async () => setSession({ state: 'signed-in', account: await me() });
  useEffect(() => {
    // A request still in flight when the person signed out is refused afterwards: their own sign-out stays what the page says.
    whenSignedOut(() => setSession((s) => (s.state === 'signed-out' ? s : { state: 'signed-out', reason: 'Your session has ended, so you were signed out. Sign in again to go on.' })));
    // A reload keeps the session: the HttpOnly cookie still holds the refresh token.
    refresh().then(
      (ok) => (ok ? load() : setSession({ state: 'signed-out' })),
      () => setSession({ state: 'signed-out' }),
    );
  }, []);

  if (session.state === 'checking')
    return (
      <main class="container">
        <Spinner label="Opening the console…" />
      </main>
    );
  if (session.state === 'signed-out') return route[0] === 'invitation' && route[1] ? <InvitationPage token={route[1]} onSignedIn={load} /> : <SignIn reason={session.reason} onSignedIn={load} />;

  const { account } = session;
  const botId = route[0] === 'bots' ? route[1] : undefined;
  const bot = account.bots.find((b) => b.id === botId);
  if (!bot && account.bots.length > 0) {
    // A route without a bot (`#/settings/api-keys`, from a path-style URL) opens that page of the first bot.
    // Anything else (a spent invitation link, a stale route) opens the overview.
    go('bots', account.bots[0]!.id, ...(SECTIONS.some((s) => s.path === route[0]) ? route : ['overview']));
  }
  const section = route[2] ?? 'overview';

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="container-fluid topbar">
        <nav aria-label="Account">
          <ul>
            <li>
              <strong class="brand">
                <Icon node={BotIcon} />
                Bot platform
              </strong>
            </li>
          </ul>
          <ul>
            {account.bots.length > 1 && bot && (
              <li>
                <label class="inline">
                  <span class="visually-hidden">Bot</span>
                  <select aria-label="Bot" value={bot.id} onChange={(e) => go('bots', (e.target as HTMLSelectElement).value, section)}>
                    {account.bots.map((b) => (
                      <option value={b.id}>{b.name}</option>
                    ))}
                  </select>
                </label>
              </li>
            )}
            <li class="who" title={account.email}>
              {account.email}
            </li>
            <li>
              <button
                type="button"
                class="secondary outline"
                onClick={async () => {
                  if (hasLocalCopies(account.userId) && !confirm('Bot builder changes that were not saved are kept in this browser; signing out discards them. Sign out anyway?')) return;
                  dropLocalCopies(account.userId);
                  await signOut();
                  setSession({ state: 'signed-out', reason: 'You are signed out.' });
                }}
              >
                Sign out
              </button>
            </li>
          </ul>
        </nav>
        {bot && <NavLinks label="Sections" class="sections" base={['bots', bot.id]} tabs={SECTIONS} current={section} />}
      </header>
      <main id="main" class="container" tabIndex={-1}>
        {account.bots.length === 0 ? (
          <div class="notice warning" role="alert" data-testid="not-allowed">
            <strong>Not allowed. </strong>Your account ({account.email}) has no role on any bot yet. Ask a bot's admin to add you.
          </div>
        ) : bot ? (
          <Page bot={bot} userId={account.userId} section={section} rest={route.slice(3)} />
        ) : (
          <Spinner />
        )}
      </main>
    </>
  );
}

function Page({ bot, userId, section, rest }: { bot: Bot; userId: string; section: string; rest: string[] }) {
  switch (section) {
    case 'settings':
      return <Settings bot={bot} sub={rest[0] ?? 'api-keys'} />;
    case 'whatsapp':
      return <WhatsAppPage bot={bot} sub={rest[0] ?? 'senders'} />;
    case 'overview':
      return <OverviewPage bot={bot} />;
    case 'push':
      return <PushPage bot={bot} />;
    case 'campaigns':
      return <CampaignsPage bot={bot} campaignId={rest[0]} />;
    case 'inbox':
      return <InboxPage bot={bot} conversationId={rest[0]} />;
    case 'builder':
      return <BuilderPage bot={bot} userId={userId} />;
    case 'messages':
      return rest[0] ? <MessageDetailPage bot={bot} msgId={rest[0]} /> : <MessagesPage bot={bot} />;
    default:
      return (
        <p>
          There is no page here. <a href={href('bots', bot.id, 'messages')}>Go to Messages</a>.
        </p>
      );
  }
}

function Settings({ bot, sub }: { bot: Bot; sub: string }) {
  const current = tabOf(SETTINGS, sub);
  return (
    <>
      <Tabs title="Settings" base={['bots', bot.id, 'settings']} tabs={SETTINGS} current={current} />
      {current.path === 'api-keys' ? (
        <ApiKeysPage bot={bot} />
      ) : current.path === 'webhook' ? (
        <WebhookPage bot={bot} />
      ) : current.path === 'oauth-clients' ? (
        <OAuthClientsPage bot={bot} />
      ) : current.path === 'audit' ? (
        <AuditLogPage bot={bot} />
      ) : current.path === 'account' ? (
        <AccountPage />
      ) : (
        <MembersPage bot={bot} />
      )}
    </>
  );
}
