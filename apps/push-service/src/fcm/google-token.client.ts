import { Injectable } from '@nestjs/common';
import { KeyObject, sign } from 'node:crypto';
import { PushEnv } from '@platform/config';
import { CredentialsRejectedError } from '../service-accounts/credentials-rejected.error.js';
import { TransientPushError } from './transient-push.error.js';

export const FIREBASE_MESSAGING_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface TokenCredentials {
  clientEmail: string;
  privateKeyId?: string;
  privateKey: KeyObject;
  tokenUri: string;
}

export interface MintedToken {
  accessToken: string;
  expiresAt: number;
}

/** The RS256-signed JWT a service account presents to the token endpoint (RFC 7523). */
export function signAssertion(c: TokenCredentials, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(c.privateKeyId ? { kid: c.privateKeyId } : {}) };
  const claims = { iss: c.clientEmail, scope: FIREBASE_MESSAGING_SCOPE, aud: c.tokenUri, iat: nowSeconds, exp: nowSeconds + 3600 };
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), c.privateKey).toString('base64url')}`;
}

/**
 * Exchanges a service-account assertion for an OAuth access token at the account's token_uri.
 * 400/401 (invalid_grant and friends) is a verdict on the credentials; 5xx, 429 and network
 * failures are transient.
 */
@Injectable()
export class GoogleTokenClient {
  constructor(private readonly env: PushEnv) {}

  async mint(c: TokenCredentials): Promise<MintedToken> {
    const started = Date.now();
    let res: Response;
    try {
      res = await fetch(c.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: signAssertion(c) }).toString(),
        signal: AbortSignal.timeout(this.env.FCM_TIMEOUT_MS),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw new TransientPushError(`token endpoint ${c.tokenUri} unreachable: ${e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message)}`);
    }
    const body = (await res.json().catch(() => undefined)) as { access_token?: string; expires_in?: number; error?: string; error_description?: string } | undefined;
    if (res.ok && typeof body?.access_token === 'string') {
      const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
      return { accessToken: body.access_token, expiresAt: started + lifetime * 1000 };
    }
    if (res.status === 429 || res.status >= 500 || res.ok) {
      throw new TransientPushError(`token endpoint ${c.tokenUri} answered ${res.status}${body?.error ? ` ${body.error}` : ''}`);
    }
    const reason = [body?.error, body?.error_description].filter(Boolean).join(': ') || `HTTP ${res.status}`;
    throw new CredentialsRejectedError(
      `Google refused the Firebase service account ${c.clientEmail} (${reason}). The key may have been deleted or ` +
        'disabled in the Google Cloud console: create a new key and save it with saveBotConfig.',
      res.status,
      body ?? null,
    );
  }
}

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
