import { OAuthError } from './oauth-error.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/**
 * Client authentication of the token and revocation endpoints (RFC 6749 §2.3.1): HTTP Basic with
 * form-encoded id and secret, or client_id/client_secret in the body, never both; a public client
 * sends only client_id.
 */
export function parseClientCredentials(authorization: string | undefined, body: Record<string, string>): ClientCredentials {
  if (authorization !== undefined) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (!match) throw new OAuthError('invalid_client', 'Client authentication must use HTTP Basic', true);
    if (body.client_secret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not Basic and client_secret together');
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials', true);
    let clientId: string;
    let clientSecret: string;
    try {
      clientId = formDecode(decoded.slice(0, colon));
      clientSecret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials', true);
    }
    if (body.client_id !== undefined && body.client_id !== clientId) {
      throw new OAuthError('invalid_request', 'client_id in the body differs from the HTTP Basic client');
    }
    return { clientId, clientSecret, method: 'client_secret_basic' };
  }
  if (!body.client_id) throw new OAuthError('invalid_client', 'Client authentication is required (HTTP Basic or client_id/client_secret)');
  if (body.client_secret !== undefined) return { clientId: body.client_id, clientSecret: body.client_secret, method: 'client_secret_post' };
  return { clientId: body.client_id, method: 'none' };
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
