import { SCOPE_ROLES } from '@platform/accounts';
import { PendingAuthorization } from '@platform/auth';
import { escapeHtml, layout } from './html.js';

const SCOPE_TEXT: Record<string, string> = {
  'bot:read': 'read the bot’s configuration and keys listing',
  'bot:write': 'change the bot as a developer',
  'bot:admin': 'administer the bot (API keys, OAuth clients, push configuration)',
};

/** The login and consent form of /oauth/authorize; every value from the request or the database is escaped. */
export function consentPage(pending: PendingAuthorization, botName: string, error?: string, email = ''): string {
  const scopes = pending.scope
    .split(' ')
    .filter((s) => s in SCOPE_ROLES)
    .map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`)
    .join('');
  return layout(
    'Authorize application',
    `<h1>Authorize ${escapeHtml(pending.clientName)}</h1>
<p><strong>${escapeHtml(pending.clientName)}</strong> asks to act on bot <strong>${escapeHtml(botName)}</strong> on your behalf:</p>
<ul>${scopes}</ul>
<p>After you decide, you will be sent back to <code>${escapeHtml(new URL(pending.redirectUri).origin === 'null' ? pending.redirectUri : new URL(pending.redirectUri).origin)}</code>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request_id" value="${escapeHtml(pending.id)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(pending.csrf)}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(email)}" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<label for="totp_code">Two-factor code (if your account has two-factor sign-in on)</label>
<input id="totp_code" name="totp_code" type="text" inputmode="numeric" autocomplete="one-time-code">
<div class="actions">
<button type="submit" name="decision" value="approve">Log in and approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

export function errorPage(message: string): string {
  return layout('Authorization error', `<h1>Authorization error</h1>\n<p class="error">${escapeHtml(message)}</p>`);
}
