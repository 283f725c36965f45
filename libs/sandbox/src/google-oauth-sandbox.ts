import { KeyObject, createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { HttpJsonServer, RecordedRequest, sendJson } from './http-json-server.js';

export const FIREBASE_MESSAGING_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A service-account document shaped like the JSON file the Google Cloud console hands out. */
export interface TestServiceAccount {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  auth_provider_x509_cert_url: string;
  client_x509_cert_url: string;
  universe_domain: string;
}

interface Account {
  projectId: string;
  publicKey: KeyObject;
  revoked: boolean;
}

export interface IssuedAccessToken {
  clientEmail: string;
  projectId: string;
  expiresAt: number;
}

/** A scripted answer of the token endpoint (instead of checking the assertion). */
export type TokenReply = { status: number; error?: string; description?: string } | { hang: true };

/**
 * Speaks Google's OAuth 2.0 token endpoint for service accounts (JWT bearer grant, RFC 7523) on
 * loopback: checks the assertion's RS256 signature with the account's public key, `iss`, `aud` (the
 * token_uri), the FCM scope and the lifetime, then issues an access token FcmSandbox accepts.
 */
export class GoogleOAuthSandbox extends HttpJsonServer {
  private readonly accounts = new Map<string, Account>();
  private readonly issued = new Map<string, IssuedAccessToken>();
  private readonly script: TokenReply[] = [];
  /** Lifetime of issued tokens (Google: 3599 s). */
  expiresIn = 3599;

  get tokenUri(): string {
    return `${this.baseUrl}/token`;
  }

  get tokenRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/token');
  }

  /** A fresh RSA key pair and service account of `projectId`, registered here (call after listen()). */
  createServiceAccount(projectId = `demo-${randomBytes(3).toString('hex')}`): TestServiceAccount {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const clientEmail = `firebase-adminsdk-${randomBytes(3).toString('hex')}@${projectId}.iam.gserviceaccount.com`;
    this.accounts.set(clientEmail, { projectId, publicKey, revoked: false });
    return {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: String(100000000000000000000n + BigInt(Math.floor(Math.random() * 1e15))),
      auth_uri: `${this.baseUrl}/o/oauth2/auth`,
      token_uri: this.tokenUri,
      auth_provider_x509_cert_url: `${this.baseUrl}/oauth2/v1/certs`,
      client_x509_cert_url: `${this.baseUrl}/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
      universe_domain: 'googleapis.com',
    };
  }

  /** Registers an account whose key was made elsewhere (e.g. the benchmark's own process). */
  registerAccount(clientEmail: string, projectId: string, publicKeyPem: string): void {
    this.accounts.set(clientEmail, { projectId, publicKey: createPublicKey(publicKeyPem), revoked: false });
  }

  /** The key was deleted in the console: assertions are refused with invalid_grant from now on. */
  revoke(clientEmail: string): void {
    const account = this.accounts.get(clientEmail);
    if (account) account.revoked = true;
    for (const [token, info] of this.issued) if (info.clientEmail === clientEmail) this.issued.delete(token);
  }

  /** Next answers, in order, whatever the request; then requests are checked normally again. */
  reply(...replies: TokenReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Who an access token was issued to, or null when unknown or expired. */
  verifyAccessToken(token: string): IssuedAccessToken | null {
    const info = this.issued.get(token);
    return info && info.expiresAt > Date.now() ? info : null;
  }

  /** Forgets every issued token (as if they had all expired). */
  expireAllTokens(): void {
    this.issued.clear();
  }

  protected handle(req: RecordedRequest, res: ServerResponse): void {
    if (req.method !== 'POST' || req.path !== '/token') return sendJson(res, 404, { error: 'not_found' });
    const next = this.script.shift();
    if (next && 'hang' in next) return;
    if (next) return sendJson(res, next.status, { error: next.error ?? 'internal_failure', error_description: next.description ?? 'scripted failure' });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return oauthError(res, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(req.rawBody);
    if (form.get('grant_type') !== JWT_BEARER) return oauthError(res, 400, 'unsupported_grant_type', 'Invalid grant_type: ' + form.get('grant_type'));
    const checked = this.checkAssertion(form.get('assertion') ?? '');
    if ('error' in checked) return oauthError(res, 400, checked.error, checked.description);
    const accessToken = `ya29.sandbox-${randomBytes(24).toString('base64url')}`;
    this.issued.set(accessToken, { clientEmail: checked.clientEmail, projectId: checked.projectId, expiresAt: Date.now() + this.expiresIn * 1000 });
    sendJson(res, 200, { access_token: accessToken, expires_in: this.expiresIn, token_type: 'Bearer' }, { 'cache-control': 'no-store' });
  }

  private checkAssertion(assertion: string): { clientEmail: string; projectId: string } | { error: string; description: string } {
    const parts = assertion.split('.');
    if (parts.length !== 3) return { error: 'invalid_grant', description: 'Invalid JWT: malformed assertion' };
    const [h, p, s] = parts;
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    } catch {
      return { error: 'invalid_grant', description: 'Invalid JWT: not JSON' };
    }
    if (header.alg !== 'RS256') return { error: 'invalid_grant', description: `Invalid JWT: alg must be RS256 (got ${header.alg})` };
    const account = typeof claims.iss === 'string' ? this.accounts.get(claims.iss) : undefined;
    if (!account) return { error: 'invalid_grant', description: 'Invalid grant: account not found' };
    if (account.revoked || !verify('RSA-SHA256', Buffer.from(`${h}.${p}`), account.publicKey, Buffer.from(s, 'base64url'))) {
      return { error: 'invalid_grant', description: 'Invalid JWT Signature.' };
    }
    if (claims.aud !== this.tokenUri) return { error: 'invalid_grant', description: `Invalid JWT: aud must be ${this.tokenUri}` };
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    if (!scopes.includes(FIREBASE_MESSAGING_SCOPE)) return { error: 'invalid_scope', description: `scope must include ${FIREBASE_MESSAGING_SCOPE}` };
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!Number.isInteger(iat) || !Number.isInteger(exp) || iat > now + 60 || exp <= now || exp - iat > 3600) {
      return { error: 'invalid_grant', description: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.' };
    }
    return { clientEmail: claims.iss as string, projectId: account.projectId };
  }
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  sendJson(res, status, { error, error_description: description });
}
