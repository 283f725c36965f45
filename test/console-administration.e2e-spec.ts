import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { Clock } from '@platform/accounts';
import { PrismaService } from '@platform/database';
import { SeededAdmin, advanceClock, openAuthorize, registerOAuthClient, seedBotAdmin, submitConsent } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/**
 * Administration over the API (issue 23 item 6): the audit log of administrators' actions, password change,
 * TOTP two-factor sign-in, invitations by link, deletable and checked senders, the message log's id search,
 * attempt timeline and CSV export. Real Postgres and Redis; Meta is the loopback sandbox.
 */
describe('administration API: audit log, password, two-factor, invitations, senders, message log', () => {
  const stack = useStack({ seed: true, cloud: true, env: { TRUST_PROXY: 'true' } });
  let admin: SeededAdmin;

  beforeAll(async () => {
    admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
  });

  const call = (method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const bot = (path: string) => `/v1/bots/${stack.seed.botId}${path}`;
  const login = (email: string, password: string, totp_code?: string) => call('POST', '/v1/auth/login', undefined, { email, password, ...(totp_code ? { totp_code } : {}) });
  /** The code an authenticator shows at the gateway's (movable) clock. */
  const codeAt = (secret: string, offsetMs = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: stack.gateway.get(Clock, { strict: false }).now().getTime() + offsetMs });
  // Moves of the gateway's clock last one test: later tests' access tokens must not have expired.
  const undo: Array<() => void> = [];
  const moveClock = (ms: number) => undo.push(advanceClock(stack.gateway, ms));
  afterEach(() => {
    while (undo.length) undo.pop()!();
  });

  describe('audit log', () => {
    it('records each administrator mutation with who, what, target, result and the IP the proxy forwarded; GET is not recorded', async () => {
      const created = await call('POST', bot('/api-keys'), admin.accessToken, { name: 'audited key' }, { 'x-forwarded-for': '198.51.100.23', 'user-agent': 'audit-test/1' });
      expect(created.status).toBe(201);
      const key = await created.json();
      expect((await call('DELETE', bot(`/api-keys/${key.id}`), admin.accessToken, undefined, { 'x-forwarded-for': '198.51.100.23' })).status).toBe(200);
      expect((await call('DELETE', bot(`/api-keys/${randomUUID()}`), admin.accessToken)).status).toBe(404);
      await call('GET', bot('/api-keys'), admin.accessToken);
      expect((await call('POST', bot('/messages/stream-ticket'), admin.accessToken)).status).toBe(201); // @NotAudited
      // Nor are the POSTs that change no setting, which the console makes as it is used: a definition checked
      // as it is edited, a conversation read, a message to a test conversation.
      expect((await call('POST', bot('/builder/validate'), admin.accessToken, { schemaVersion: 1 })).status).toBe(200);
      expect((await call('POST', bot(`/inbox/conversations/${randomUUID()}/read`), admin.accessToken, {})).status).toBe(404);
      expect((await call('POST', bot(`/builder/try/${randomUUID()}/messages`), admin.accessToken, { text: 'hi' })).status).toBe(404);

      const res = await call('GET', bot('/audit?action=api-keys'), admin.accessToken);
      expect(res.status).toBe(200);
      const { entries } = await res.json();
      expect(entries.map((e: { action: string; statusCode: number }) => `${e.action} ${e.statusCode}`)).toEqual(['api-keys.delete 404', 'api-keys.delete 200', 'api-keys.create 201']);
      expect(entries[1]).toMatchObject({ actor: admin.email, userId: admin.userId, method: 'DELETE', target: `keyId=${key.id}`, ip: '198.51.100.23', path: bot(`/api-keys/${key.id}`) });
      expect(entries[2]).toMatchObject({ userAgent: 'audit-test/1', target: null });
      expect(Date.parse(entries[0].at)).toBeGreaterThanOrEqual(Date.parse(entries[1].at));
      expect((await (await call('GET', bot('/audit?action=messages'), admin.accessToken)).json()).entries).toEqual([]);
      expect((await (await call('GET', bot('/audit?action=builder'), admin.accessToken)).json()).entries).toEqual([]);
      expect((await (await call('GET', bot('/audit?action=inbox'), admin.accessToken)).json()).entries).toEqual([]);
    });

    it('covers other administrator routes without a line of their own (members, senders), pages by cursor and filters by actor', async () => {
      const other = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
      expect((await call('PUT', bot('/members'), admin.accessToken, { email: other.email, role: 'developer' })).status).toBe(200);
      expect((await call('PATCH', bot(`/whatsapp/senders/${randomUUID()}`), admin.accessToken, { throughput: 10 })).status).toBe(404);
      const first = await (await call('GET', bot(`/audit?limit=1&actor=${encodeURIComponent(admin.email.toUpperCase())}`), admin.accessToken)).json();
      expect(first.entries).toHaveLength(1);
      expect(first.entries[0].action).toBe('whatsapp.senders.update');
      const second = await (await call('GET', bot(`/audit?limit=1&actor=${encodeURIComponent(admin.email)}&cursor=${first.nextCursor}`), admin.accessToken)).json();
      expect(second.entries[0]).toMatchObject({ action: 'members.update', statusCode: 200 });
      const none = await (await call('GET', bot(`/audit?actor=${encodeURIComponent(other.email)}`), admin.accessToken)).json();
      expect(none.entries).toEqual([]);
    });

    it('is for admins only (403 to a developer), and refuses bad filters naming them', async () => {
      const dev = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
      expect((await call('GET', bot('/audit'), dev.accessToken)).status).toBe(403);
      const bad = await call('GET', bot('/audit?since=yesterday'), admin.accessToken);
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toMatch(/since must be an ISO 8601/);
      expect((await (await call('GET', bot('/audit?limit=500'), admin.accessToken)).json()).message).toMatch(/limit must be an integer from 1 to 100/);
    });
  });

  describe('password change', () => {
    it('needs the current password, checks the new one, and ends the other sessions', async () => {
      const me = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
      const elsewhere = await (await login(me.email, me.password)).json();
      const wrong = await call('POST', '/v1/me/password', me.accessToken, { current_password: 'not-it-at-all', new_password: 'a new long passphrase' });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).message).toBe('current_password is wrong');
      const short = await call('POST', '/v1/me/password', me.accessToken, { current_password: me.password, new_password: 'short' });
      expect(short.status).toBe(400);
      expect((await short.json()).message).toMatch(/password must be 12 to 1024 characters/);
      expect((await call('POST', '/v1/me/password', me.accessToken, { current_password: me.password })).status).toBe(400);

      const ok = await call('POST', '/v1/me/password', me.accessToken, { current_password: me.password, new_password: 'a new long passphrase' });
      expect(ok.status).toBe(200);
      expect((await call('GET', '/v1/me', me.accessToken)).status).toBe(200); // this session goes on
      expect((await call('GET', '/v1/me', elsewhere.access_token)).status).toBe(401); // the other one ended
      expect((await login(me.email, me.password)).status).toBe(401);
      expect((await login(me.email, 'a new long passphrase')).status).toBe(200);
      const rows = await stack.gateway.get(PrismaService).auditEntry.findMany({ where: { userId: me.userId, action: 'account.password.update' }, orderBy: { createdAt: 'asc' } });
      expect(rows.map((r) => r.statusCode)).toEqual([401, 200]);
      expect(rows[0]!.botId).toBeNull();
    });
  });

  describe('two-factor sign-in (TOTP)', () => {
    it('enrols with an otpauth URI, confirms a code, then sign-in asks for it; codes work once; recovery codes once each', async () => {
      const me = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
      expect(await (await call('GET', '/v1/me/two-factor', me.accessToken)).json()).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
      const start = await call('POST', '/v1/me/two-factor', me.accessToken);
      expect(start.status).toBe(200);
      const { secret, otpauth_uri } = await start.json();
      expect(otpauth_uri).toContain(`secret=${secret}`);
      const stored = await stack.gateway.get(PrismaService).user.findUnique({ where: { id: me.userId } });
      expect(stored!.totpSecretEncrypted).not.toContain(secret); // sealed with SecretBox
      // Not in force before it is confirmed.
      expect((await login(me.email, me.password)).status).toBe(200);

      const bad = await call('POST', '/v1/me/two-factor/confirm', me.accessToken, { code: '12345' });
      expect(bad.status).toBe(400);
      const confirmed = await call('POST', '/v1/me/two-factor/confirm', me.accessToken, { code: codeAt(secret) });
      expect(confirmed.status).toBe(200);
      const { recovery_codes } = await confirmed.json();
      expect(recovery_codes).toHaveLength(10);

      const asked = await login(me.email, me.password);
      expect(asked.status).toBe(401);
      expect(await asked.json()).toEqual({ message: 'Enter the code from your authenticator app (or a recovery code)', status: 'error', details: { totp_required: true } });
      // The step the confirmation used is spent; the next one signs in, once.
      moveClock(30_000);
      const code = codeAt(secret);
      const signed = await login(me.email, me.password, code);
      expect(signed.status).toBe(200);
      expect((await signed.json()).access_token).toMatch(/^bat_/);
      const replay = await login(me.email, me.password, code);
      expect(replay.status).toBe(401);
      expect((await replay.json()).message).toBe('The two-factor code is wrong or was used already');
      // A wrong password with a right code is still a wrong password.
      moveClock(30_000);
      expect((await (await login(me.email, 'wrong password!!', codeAt(secret))).json()).message).toBe('Invalid e-mail or password');

      expect((await login(me.email, me.password, recovery_codes[0])).status).toBe(200);
      expect((await login(me.email, me.password, recovery_codes[0])).status).toBe(401);
      expect((await (await call('GET', '/v1/me/two-factor', me.accessToken)).json()).recoveryCodesLeft).toBe(9);

      // Turning it off takes the password and a code.
      moveClock(30_000);
      expect((await call('DELETE', '/v1/me/two-factor', me.accessToken, { password: 'wrong password!!', code: codeAt(secret) })).status).toBe(401);
      expect((await call('DELETE', '/v1/me/two-factor', me.accessToken, { password: me.password, code: recovery_codes[1] })).status).toBe(200);
      expect((await login(me.email, me.password)).status).toBe(200);
    });

    it('the OAuth consent page asks for the code too: it is no way round two-factor sign-in', async () => {
      const me = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
      const { secret } = await (await call('POST', '/v1/me/two-factor', me.accessToken)).json();
      expect((await call('POST', '/v1/me/two-factor/confirm', me.accessToken, { code: codeAt(secret) })).status).toBe(200);
      moveClock(30_000);
      const client = await registerOAuthClient(stack.url, stack.seed.botId, me.accessToken, { name: 'CRM', type: 'confidential', redirect_uris: ['https://client.example.com/cb'] });
      const params = { client_id: client.client_id, response_type: 'code', redirect_uri: 'https://client.example.com/cb', state: 's' };
      const first = await openAuthorize(stack.url, params);
      expect(first.html).toContain('name="totp_code"');
      const without = await submitConsent(stack.url, first.form!, { email: me.email, password: me.password });
      expect(without.status).toBe(200);
      expect(without.html).toContain('This account signs in with a two-factor code');
      const again = await openAuthorize(stack.url, params);
      const withCode = await submitConsent(stack.url, again.form!, { email: me.email, password: me.password, totp_code: codeAt(secret) } as { email: string; password: string });
      expect(withCode.status).toBe(303);
      expect(withCode.location!.searchParams.get('code')).toMatch(/^bac_/);
    });

    it('an OAuth-style token cannot change the account; no token is 401', async () => {
      expect((await call('POST', '/v1/me/two-factor')).status).toBe(401);
      expect((await call('POST', '/v1/me/password', 'bpk_not-an-access-token', { current_password: 'x', new_password: 'y' })).status).toBe(401);
    });
  });

  describe('invitations by link', () => {
    it('an admin invites an address; the link shows what it is for, creates the account with the role once, then is dead', async () => {
      const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
      const created = await call('POST', bot('/invitations'), admin.accessToken, { email: email.toUpperCase(), role: 'developer' });
      expect(created.status).toBe(201);
      const inv = await created.json();
      expect(inv).toMatchObject({ email, role: 'developer', token: expect.stringMatching(/^biv_/) });
      expect(inv.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/console/#/invitation/${inv.token}$`)); // BASE_URL's
      const row = await stack.gateway.get(PrismaService).invitation.findUnique({ where: { id: inv.id } });
      expect(row!.tokenHash).not.toContain(inv.token.slice(4));
      expect((await (await call('GET', bot('/invitations'), admin.accessToken)).json()).invitations.map((i: { email: string }) => i.email)).toContain(email);

      const look = await call('POST', '/v1/invitations/lookup', undefined, { token: inv.token });
      expect(await look.json()).toMatchObject({ email, bot: 'test bot', role: 'developer' });
      const weak = await call('POST', '/v1/invitations/accept', undefined, { token: inv.token, password: 'short' });
      expect(weak.status).toBe(400);
      const accepted = await call('POST', '/v1/invitations/accept', undefined, { token: inv.token, password: 'the invitee passphrase' });
      expect(accepted.status).toBe(200);
      const session = await accepted.json();
      const me = await (await call('GET', '/v1/me', session.access_token)).json();
      expect(me).toMatchObject({ email, bots: [{ id: stack.seed.botId, role: 'developer' }] });
      expect((await call('POST', '/v1/invitations/accept', undefined, { token: inv.token, password: 'the invitee passphrase' })).status).toBe(404);
      expect((await call('POST', '/v1/invitations/lookup', undefined, { token: inv.token })).status).toBe(404);
      const audit = await (await call('GET', bot('/audit?action=invitations'), admin.accessToken)).json();
      expect(audit.entries.map((e: { action: string; actor: string }) => `${e.action} ${e.actor}`)).toEqual([`invitations.accept ${email}`, `invitations.create ${admin.email}`]);
    });

    it('refuses an address with an account (409), a withdrawn link and an expired one (404), and a token of the wrong shape (400)', async () => {
      expect((await call('POST', bot('/invitations'), admin.accessToken, { email: admin.email, role: 'viewer' })).status).toBe(409);
      expect((await call('POST', bot('/invitations'), admin.accessToken, { email: 'x@example.com', role: 'owner' })).status).toBe(400);
      const withdrawn = await (await call('POST', bot('/invitations'), admin.accessToken, { email: `w-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' })).json();
      expect((await call('DELETE', bot(`/invitations/${withdrawn.id}`), admin.accessToken)).status).toBe(200);
      expect((await call('POST', '/v1/invitations/accept', undefined, { token: withdrawn.token, password: 'the invitee passphrase' })).status).toBe(404);
      const expiring = await (await call('POST', bot('/invitations'), admin.accessToken, { email: `e-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' })).json();
      moveClock(8 * 24 * 3600 * 1000);
      expect((await call('POST', '/v1/invitations/lookup', undefined, { token: expiring.token })).status).toBe(404);
      const shape = await call('POST', '/v1/invitations/lookup', undefined, { token: 'abc' });
      expect(shape.status).toBe(400);
      expect((await shape.json()).message).toMatch(/token must be an invitation token/);
    });
  });

  describe('senders', () => {
    const sender = (over: Record<string, unknown> = {}) => ({ number: '+15550007777', phoneNumberId: '106500000007777', accessToken: 'EAAG-good-token', ...over });

    it('checks a token when saved: stray spaces are refused before Meta is asked, a token Meta refuses is 400 naming it', async () => {
      const spaced = await call('POST', bot('/whatsapp/senders'), admin.accessToken, sender({ accessToken: ' EAAG-good-token\n' }));
      expect(spaced.status).toBe(400);
      expect((await spaced.json()).message).toMatch(/accessToken has spaces or line breaks at its start or end/);
      const asked = stack.cloud.requests.length;
      stack.cloud.refusedTokens.add('EAAG-expired-token');
      const refused = await call('POST', bot('/whatsapp/senders'), admin.accessToken, sender({ accessToken: 'EAAG-expired-token' }));
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toMatch(/accessToken was refused by the WhatsApp Cloud API for phone-number id 106500000007777: Error validating access token/);
      expect(stack.cloud.requests.slice(asked).map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual(['GET /v21.0/106500000007777']);
      const senders = (await (await call('GET', bot('/whatsapp/senders'), admin.accessToken)).json()).senders;
      const patched = await call('PATCH', bot(`/whatsapp/senders/${senders[0].id}`), admin.accessToken, { accessToken: 'EAAG-expired-token' });
      expect(patched.status).toBe(400);
    });

    it('shows recent failures and the last error; deleting hides the sender, frees its number, and keeps its messages in the log', async () => {
      const created = await call('POST', bot('/whatsapp/senders'), admin.accessToken, sender());
      expect(created.status).toBe(201);
      const s = await created.json();
      const db = stack.gateway.get(PrismaService);
      const msgId = randomUUID();
      await db.message.create({
        data: {
          id: msgId,
          botId: stack.seed.botId,
          templateId: stack.seed.templateId,
          senderId: s.id,
          channel: 'whatsapp',
          recipient: '15550004444',
          status: 'failed',
          attempts: 3,
          lastErrorCode: '131026',
          lastErrorText: 'Message undeliverable',
        },
      });
      const listed = (await (await call('GET', bot('/whatsapp/senders'), admin.accessToken)).json()).senders.find((x: { id: string }) => x.id === s.id);
      expect(listed).toMatchObject({ recentFailures: 1, lastError: { code: '131026', text: 'Message undeliverable' } });

      expect((await call('DELETE', bot(`/whatsapp/senders/${s.id}`), admin.accessToken)).status).toBe(200);
      expect((await call('DELETE', bot(`/whatsapp/senders/${s.id}`), admin.accessToken)).status).toBe(404);
      const after = (await (await call('GET', bot('/whatsapp/senders'), admin.accessToken)).json()).senders;
      expect(after.map((x: { id: string }) => x.id)).not.toContain(s.id);
      const log = await (await call('GET', bot(`/messages?id=${msgId}`), admin.accessToken)).json();
      expect(log.messages).toEqual([expect.objectContaining({ msgId, sender: '15550007777', lastError: { code: '131026', text: 'Message undeliverable' } })]);
      // The number can be a sender again.
      expect((await call('POST', bot('/whatsapp/senders'), admin.accessToken, sender())).status).toBe(201);
      const audit = await (await call('GET', bot('/audit?action=whatsapp.senders.delete'), admin.accessToken)).json();
      expect(audit.entries.map((e: { statusCode: number }) => e.statusCode)).toEqual([404, 200]);
    });
  });

  describe('message log', () => {
    it('finds a message by its id or its wamid, lists its attempts, and exports the log as CSV', async () => {
      const db = stack.gateway.get(PrismaService);
      const senderId = (await db.channelSender.findFirst({ where: { botId: stack.seed.botId, number: stack.seed.senderNumber } }))!.id;
      const id = randomUUID();
      await db.message.create({
        data: {
          id,
          botId: stack.seed.botId,
          templateId: stack.seed.templateId,
          senderId,
          channel: 'whatsapp',
          recipient: '15550005555',
          status: 'sent',
          attempts: 2,
          providerMessageId: 'wamid.csv-test-1',
        },
      });
      const messages = stack.gateway.get((await import('@platform/database')).MessageRepository, { strict: false });
      await messages.recordError(id, '131000', 'Something went wrong, "transient"', false);

      expect((await (await call('GET', bot('/messages?id=wamid.csv-test-1'), admin.accessToken)).json()).messages.map((m: { msgId: string }) => m.msgId)).toEqual([id]);
      expect((await call('GET', bot('/messages?id=nope'), admin.accessToken)).status).toBe(400);
      const attempts = await (await call('GET', bot(`/messages/${id}/attempts`), admin.accessToken)).json();
      expect(attempts.attempts).toEqual([{ at: expect.any(String), attempt: 2, kind: 'retry', code: '131000', text: 'Something went wrong, "transient"' }]);

      const csv = await call('GET', bot('/messages/export.csv?recipient=15550005555'), admin.accessToken);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="messages-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = (await csv.text()).trimEnd().split('\r\n');
      expect(lines[0]).toBe('msg_id,created_at,status,recipient,sender,template,attempts,provider_message_id,error_code,error_text,sent_at,delivered_at,read_at');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`${id},`);
      expect(lines[1]).toContain(',sent,+15550005555,+15550001111,summer_carousel,2,wamid.csv-test-1,131000,"Something went wrong, ""transient""",');
    });
  });
});
