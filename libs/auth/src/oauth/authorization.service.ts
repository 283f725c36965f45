import { Injectable } from '@nestjs/common';
import { AuthEnv, HttpEnv } from '@platform/config';
import { safeEqual } from '@platform/crypto';
import { AuthorizationCodeRepository } from '@platform/database';
import { Clock } from '@platform/accounts';
import { capScopesToRole, parseScope } from '@platform/accounts';
import { generateSecret } from '@platform/accounts';
import { TwoFactorService, UserService } from '@platform/accounts';
import { AuthorizationRequestStore, PendingAuthorization } from './authorization-request.store.js';
import { OAuthClientService } from '@platform/accounts';
import { isValidS256Challenge } from './pkce.js';
import { buildRedirect } from '@platform/accounts';

/** What GET /oauth/authorize should answer. */
export type AuthorizeOutcome =
  /** Client or redirect URI cannot be trusted: an error page, never a redirect. */
  | { kind: 'error-page'; status: number; message: string }
  /** Send the browser back to the client (an error, or the code). */
  | { kind: 'redirect'; location: string }
  /** Show the login and consent form. */
  | { kind: 'form'; pending: PendingAuthorization; error?: string; wrongPassword?: boolean };

const MAX_STATE_LENGTH = 2048;

/** The authorization endpoint: checks a request, then turns the administrator's approval into a single-use code. */
@Injectable()
export class AuthorizationService {
  constructor(
    private readonly clients: OAuthClientService,
    private readonly requests: AuthorizationRequestStore,
    private readonly codes: AuthorizationCodeRepository,
    private readonly users: UserService,
    private readonly twoFactor: TwoFactorService,
    private readonly env: AuthEnv,
    private readonly http: HttpEnv,
    private readonly clock: Clock,
  ) {}

  /** RFC 6749 §4.1.1 + RFC 7636 §4.3: validate, and on success remember the request for the form. */
  async start(query: Record<string, unknown>): Promise<AuthorizeOutcome> {
    const clientId = query.client_id;
    const redirectUri = query.redirect_uri;
    if (typeof clientId !== 'string' || !clientId) return errorPage('The request names no valid client_id.');
    const client = await this.clients.findActive(clientId);
    if (!client) return errorPage('The application (client_id) is unknown or has been revoked.');
    if (typeof redirectUri !== 'string' || !client.redirectUris.includes(redirectUri)) {
      return errorPage('The redirect_uri is missing or is not registered for this application.');
    }
    // From here on the redirect URI is trusted: errors go back to the client, with its state.
    const state = typeof query.state === 'string' ? query.state : undefined;
    const back = (error: string, description: string) => ({
      kind: 'redirect' as const,
      location: buildRedirect(redirectUri, { error, error_description: description, state, iss: this.http.AUTH_URL }),
    });
    const repeated = Object.entries(query).find(([, v]) => Array.isArray(v));
    if (repeated) return back('invalid_request', `parameter ${repeated[0]} is repeated`);
    if (state !== undefined && state.length > MAX_STATE_LENGTH) return back('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters`);
    if (query.response_type === undefined) return back('invalid_request', 'response_type is required');
    if (query.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
    if (!client.grantTypes.includes('authorization_code')) return back('unauthorized_client', 'this client may not use the authorization code grant');

    let scopes = client.scopes;
    if (query.scope !== undefined) {
      const requested = typeof query.scope === 'string' ? parseScope(query.scope) : null;
      if (!requested) return back('invalid_scope', 'scope names an unknown scope');
      if (requested.some((s) => !client.scopes.includes(s))) return back('invalid_scope', 'scope exceeds what this client may request');
      scopes = requested;
    }

    const challenge = query.code_challenge;
    const method = query.code_challenge_method;
    if (challenge !== undefined || method !== undefined) {
      if (method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
      if (typeof challenge !== 'string' || !isValidS256Challenge(challenge)) {
        return back('invalid_request', 'code_challenge must be the 43-character BASE64URL(SHA256(code_verifier))');
      }
    } else if (client.type === 'public') {
      return back('invalid_request', 'PKCE is required for public clients: send code_challenge with code_challenge_method=S256');
    }

    const pending = await this.requests.save({
      clientDbId: client.id,
      clientId: client.clientId,
      clientName: client.name,
      botId: client.botId,
      redirectUri,
      scope: scopes.join(' '),
      state,
      codeChallenge: typeof challenge === 'string' ? challenge : undefined,
    });
    return { kind: 'form', pending };
  }

  /** The pending request of a submitted form, or null when unknown or expired. */
  find(requestId: string): Promise<PendingAuthorization | null> {
    return this.requests.get(requestId);
  }

  checkCsrf(pending: PendingAuthorization, formToken: string | undefined, cookieToken: string | undefined): boolean {
    return !!formToken && !!cookieToken && safeEqual(formToken, pending.csrf) && safeEqual(cookieToken, pending.csrf);
  }

  async deny(pending: PendingAuthorization): Promise<AuthorizeOutcome> {
    if (!(await this.requests.take(pending.id))) return usedPage();
    return {
      kind: 'redirect',
      location: buildRedirect(pending.redirectUri, {
        error: 'access_denied',
        error_description: 'the administrator denied the request',
        state: pending.state,
        iss: this.http.AUTH_URL,
      }),
    };
  }

  /** Checks the administrator's password and role on the client's bot; on success redirects with a fresh code. */
  async approve(pending: PendingAuthorization, email: string, password: string, totpCode?: string): Promise<AuthorizeOutcome> {
    const user = await this.users.authenticate(email, password);
    if (!user) return { kind: 'form', pending, error: 'Invalid e-mail or password.', wrongPassword: true };
    // Two-factor sign-in holds here too: otherwise this page would be a way round it.
    const second = await this.twoFactor.check(user, totpCode);
    if (second === 'required') return { kind: 'form', pending, error: 'This account signs in with a two-factor code: enter the code of your authenticator app (or a recovery code).' };
    if (second === 'invalid') return { kind: 'form', pending, error: 'The two-factor code is wrong or was used already.', wrongPassword: true };
    const role = await this.users.roleOn(user.id, pending.botId);
    if (!role) return { kind: 'form', pending, error: 'This account has no role on the bot this application asks for.' };
    if (!(await this.requests.take(pending.id))) return usedPage();
    const code = generateSecret('code');
    await this.codes.create({
      codeHash: code.hash,
      clientId: pending.clientDbId,
      userId: user.id,
      botId: pending.botId,
      redirectUri: pending.redirectUri,
      scope: capScopesToRole(pending.scope.split(' '), role).join(' '),
      codeChallenge: pending.codeChallenge ?? null,
      codeChallengeMethod: pending.codeChallenge ? 'S256' : null,
      expiresAt: new Date(this.clock.now().getTime() + this.env.AUTH_CODE_TTL_SECONDS * 1000),
    });
    return {
      kind: 'redirect',
      location: buildRedirect(pending.redirectUri, { code: code.value, state: pending.state, iss: this.http.AUTH_URL }),
    };
  }
}

function errorPage(message: string): AuthorizeOutcome {
  return { kind: 'error-page', status: 400, message };
}

function usedPage(): AuthorizeOutcome {
  return { kind: 'error-page', status: 400, message: 'This authorization request was already answered or has expired. Start again from the application.' };
}
