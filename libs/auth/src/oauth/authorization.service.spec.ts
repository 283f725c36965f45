import 'reflect-metadata';
import type { Clock, OAuthClientService, TwoFactorService, UserService } from '@platform/accounts';
import type { AuthEnv, HttpEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import type { AuthorizationCodeRepository, BotRole, OAuthClient } from '@platform/database';
import type { AuthorizationRequestStore, PendingAuthorization } from './authorization-request.store.js';
import { AuthorizationService, type AuthorizeOutcome } from './authorization.service.js';
import { s256 } from './pkce.js';

const T0 = Date.parse('2026-12-16T10:00:00Z');
const REDIRECT = 'https://app.example.com/callback';
const ISSUER = 'https://auth.example.com';
const CHALLENGE = s256('v'.repeat(43));

interface Options {
  client?: Partial<OAuthClient>;
  role?: BotRole | null;
  second?: 'ok' | 'required' | 'invalid';
}

/** In-memory request store (take answers true once, as Redis DEL does) and code table; users and two-factor stubbed. */
function setup(opts: Options = {}) {
  const clientRow = {
    id: 'client-db-1',
    clientId: 'bci_one',
    name: 'Helpdesk',
    botId: 'bot-1',
    type: 'confidential',
    redirectUris: [REDIRECT],
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['bot:read', 'bot:write'],
    ...opts.client,
  } as OAuthClient;
  const clients = { findActive: async (id: string) => (id === clientRow.clientId ? clientRow : null) } as unknown as OAuthClientService;
  const pendings = new Map<string, PendingAuthorization>();
  let n = 0;
  const requests = {
    save: async (r: Omit<PendingAuthorization, 'id' | 'csrf'>) => {
      const p = { ...r, id: `req-${n}`, csrf: `csrf-${n++}` };
      pendings.set(p.id, p);
      return p;
    },
    get: async (id: string) => pendings.get(id) ?? null,
    take: async (id: string) => pendings.delete(id),
  } as unknown as AuthorizationRequestStore;
  const codes: Array<Record<string, unknown>> = [];
  const codeRepo = { create: async (d: Record<string, unknown>) => codes.push(d) } as unknown as AuthorizationCodeRepository;
  const users = {
    authenticate: async (email: string, password: string) => (email === 'ann@example.com' && password === 'correct horse' ? { id: 'user-1' } : null),
    roleOn: async (userId: string, botId: string) => (userId === 'user-1' && botId === 'bot-1' ? (opts.role === undefined ? 'admin' : opts.role) : null),
  } as unknown as UserService;
  const twoFactor = { check: async () => opts.second ?? 'ok' } as unknown as TwoFactorService;
  const service = new AuthorizationService(
    clients,
    requests,
    codeRepo,
    users,
    twoFactor,
    { AUTH_CODE_TTL_SECONDS: 60 } as AuthEnv,
    { AUTH_URL: ISSUER } as HttpEnv,
    { now: () => new Date(T0) } as Clock,
  );
  return { service, pendings, codes };
}

const query = (over: Record<string, unknown> = {}) => ({ client_id: 'bci_one', redirect_uri: REDIRECT, response_type: 'code', state: 'xyz', ...over });

function redirectParams(outcome: AuthorizeOutcome): Record<string, string> {
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(outcome)}`);
  const url = new URL(outcome.location);
  expect(url.origin + url.pathname).toBe(REDIRECT);
  return Object.fromEntries(url.searchParams);
}

async function pendingOf(service: AuthorizationService, q = query()): Promise<PendingAuthorization> {
  const outcome = await service.start(q);
  if (outcome.kind !== 'form') throw new Error(`expected the form, got ${JSON.stringify(outcome)}`);
  return outcome.pending;
}

describe('AuthorizationService', () => {
  describe('start', () => {
    it('remembers a valid request, defaulting to every scope of the client', async () => {
      const { service, pendings } = setup();
      const pending = await pendingOf(service);
      expect(pending).toEqual({
        id: 'req-0',
        csrf: 'csrf-0',
        clientDbId: 'client-db-1',
        clientId: 'bci_one',
        clientName: 'Helpdesk',
        botId: 'bot-1',
        redirectUri: REDIRECT,
        scope: 'bot:read bot:write',
        state: 'xyz',
        codeChallenge: undefined,
      });
      expect(pendings.size).toBe(1);
      await expect(service.find('req-0')).resolves.toEqual(pending);
      await expect(service.find('req-9')).resolves.toBeNull();
    });

    it('answers an error page, never a redirect, while client or redirect URI are not trusted', async () => {
      const { service, pendings } = setup();
      const cases: Array<[Record<string, unknown>, string]> = [
        [query({ client_id: undefined }), 'The request names no valid client_id.'],
        [query({ client_id: ['bci_one', 'bci_one'] }), 'The request names no valid client_id.'],
        [query({ client_id: 'bci_other' }), 'The application (client_id) is unknown or has been revoked.'],
        [query({ redirect_uri: undefined }), 'The redirect_uri is missing or is not registered for this application.'],
        [query({ redirect_uri: 'https://evil.example.com/callback' }), 'The redirect_uri is missing or is not registered for this application.'],
        [query({ redirect_uri: `${REDIRECT}/` }), 'The redirect_uri is missing or is not registered for this application.'],
      ];
      for (const [q, message] of cases) await expect(service.start(q)).resolves.toEqual({ kind: 'error-page', status: 400, message });
      expect(pendings.size).toBe(0);
    });

    it('sends request errors back to the client with its state and the issuer', async () => {
      const { service, pendings } = setup();
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [query({ scope: ['bot:read', 'bot:read'] }), 'invalid_request', 'parameter scope is repeated'],
        [query({ state: 's'.repeat(2049) }), 'invalid_request', 'state must be at most 2048 characters'],
        [query({ response_type: undefined }), 'invalid_request', 'response_type is required'],
        [query({ response_type: 'token' }), 'unsupported_response_type', 'response_type must be code'],
        [query({ scope: 'bot:read nonsense' }), 'invalid_scope', 'scope names an unknown scope'],
        [query({ scope: 'bot:admin' }), 'invalid_scope', 'scope exceeds what this client may request'],
        [query({ code_challenge: CHALLENGE }), 'invalid_request', 'code_challenge_method must be S256'],
        [query({ code_challenge: CHALLENGE, code_challenge_method: 'plain' }), 'invalid_request', 'code_challenge_method must be S256'],
        [query({ code_challenge: 'short', code_challenge_method: 'S256' }), 'invalid_request', 'code_challenge must be the 43-character BASE64URL(SHA256(code_verifier))'],
        [query({ code_challenge_method: 'S256' }), 'invalid_request', 'code_challenge must be the 43-character BASE64URL(SHA256(code_verifier))'],
      ];
      for (const [q, error, description] of cases) {
        const params = redirectParams(await service.start(q));
        expect(params).toMatchObject({ error, error_description: description, iss: ISSUER });
        if (typeof q.state === 'string' && q.state.length <= 2048) expect(params.state).toBe('xyz');
      }
      expect(pendings.size).toBe(0);
    });

    it('requires PKCE of a public client and refuses a client without the code grant', async () => {
      const pub = setup({ client: { type: 'public' } });
      expect(redirectParams(await pub.service.start(query()))).toEqual({
        error: 'invalid_request',
        error_description: 'PKCE is required for public clients: send code_challenge with code_challenge_method=S256',
        state: 'xyz',
        iss: ISSUER,
      });
      await expect(pendingOf(pub.service, query({ code_challenge: CHALLENGE, code_challenge_method: 'S256' }))).resolves.toMatchObject({ codeChallenge: CHALLENGE });
      const noCode = setup({ client: { grantTypes: ['refresh_token'] } });
      expect(redirectParams(await noCode.service.start(query()))).toMatchObject({ error: 'unauthorized_client' });
    });

    it('keeps a requested subset of the scopes, without duplicates', async () => {
      const { service } = setup();
      await expect(pendingOf(service, query({ scope: 'bot:read bot:read' }))).resolves.toMatchObject({ scope: 'bot:read' });
    });
  });

  describe('checkCsrf', () => {
    it('holds only when form and cookie both carry the pending request’s token', async () => {
      const { service } = setup();
      const pending = await pendingOf(service);
      expect(service.checkCsrf(pending, 'csrf-0', 'csrf-0')).toBe(true);
      expect(service.checkCsrf(pending, 'csrf-0', undefined)).toBe(false);
      expect(service.checkCsrf(pending, undefined, 'csrf-0')).toBe(false);
      expect(service.checkCsrf(pending, '', '')).toBe(false);
      expect(service.checkCsrf(pending, 'csrf-0', 'csrf-1')).toBe(false);
      expect(service.checkCsrf(pending, 'csrf-0x', 'csrf-0')).toBe(false);
      expect(service.checkCsrf(pending, 'csrf-', 'csrf-0')).toBe(false);
    });
  });

  describe('approve', () => {
    it('redirects with a single-use code stored only hashed, expiring after AUTH_CODE_TTL_SECONDS', async () => {
      const { service, codes, pendings } = setup();
      const pending = await pendingOf(service, query({ code_challenge: CHALLENGE, code_challenge_method: 'S256' }));
      const params = redirectParams(await service.approve(pending, 'ann@example.com', 'correct horse'));
      expect(params).toEqual({ code: expect.stringMatching(/^bac_[A-Za-z0-9_-]{43}$/), state: 'xyz', iss: ISSUER });
      expect(codes).toEqual([
        {
          codeHash: sha256Hex(params.code),
          clientId: 'client-db-1',
          userId: 'user-1',
          botId: 'bot-1',
          redirectUri: REDIRECT,
          scope: 'bot:read bot:write',
          codeChallenge: CHALLENGE,
          codeChallengeMethod: 'S256',
          expiresAt: new Date(T0 + 60_000),
        },
      ]);
      expect(pendings.size).toBe(0);
      // The form cannot be approved a second time (a replayed POST).
      await expect(service.approve(pending, 'ann@example.com', 'correct horse')).resolves.toEqual({
        kind: 'error-page',
        status: 400,
        message: 'This authorization request was already answered or has expired. Start again from the application.',
      });
      expect(codes).toHaveLength(1);
    });

    it("caps the code's scope to the user's role on the bot", async () => {
      const { service, codes } = setup({ role: 'viewer' });
      await service.approve(await pendingOf(service), 'ann@example.com', 'correct horse');
      expect(codes[0]).toMatchObject({ scope: 'bot:read', codeChallenge: null, codeChallengeMethod: null });
    });

    it('shows the form again on a wrong password, a missing or wrong second factor, or no role, keeping the request', async () => {
      const { service, pendings, codes } = setup();
      const pending = await pendingOf(service);
      await expect(service.approve(pending, 'ann@example.com', 'wrong')).resolves.toEqual({ kind: 'form', pending, error: 'Invalid e-mail or password.', wrongPassword: true });
      const required = setup({ second: 'required' });
      const p2 = await pendingOf(required.service);
      await expect(required.service.approve(p2, 'ann@example.com', 'correct horse')).resolves.toMatchObject({ kind: 'form', error: expect.stringContaining('two-factor code') });
      const invalid = setup({ second: 'invalid' });
      const p3 = await pendingOf(invalid.service);
      await expect(invalid.service.approve(p3, 'ann@example.com', 'correct horse', '000000')).resolves.toEqual({
        kind: 'form',
        pending: p3,
        error: 'The two-factor code is wrong or was used already.',
        wrongPassword: true,
      });
      const noRole = setup({ role: null });
      const p4 = await pendingOf(noRole.service);
      await expect(noRole.service.approve(p4, 'ann@example.com', 'correct horse')).resolves.toEqual({
        kind: 'form',
        pending: p4,
        error: 'This account has no role on the bot this application asks for.',
      });
      expect([pendings.size, required.pendings.size, invalid.pendings.size, noRole.pendings.size]).toEqual([1, 1, 1, 1]);
      expect([codes, required.codes, invalid.codes, noRole.codes].flat()).toHaveLength(0);
    });
  });

  describe('deny', () => {
    it('redirects with access_denied once, then answers the used page', async () => {
      const { service, codes } = setup();
      const pending = await pendingOf(service);
      expect(redirectParams(await service.deny(pending))).toEqual({ error: 'access_denied', error_description: 'the administrator denied the request', state: 'xyz', iss: ISSUER });
      await expect(service.deny(pending)).resolves.toMatchObject({ kind: 'error-page', status: 400 });
      // A denied request cannot be approved afterwards.
      await expect(service.approve(pending, 'ann@example.com', 'correct horse')).resolves.toMatchObject({ kind: 'error-page' });
      expect(codes).toHaveLength(0);
    });
  });
});
