const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_URI_LENGTH = 2000;

/**
 * Why a redirect URI cannot be registered, or null when it can: absolute, no fragment, no credentials;
 * https, or http only on a loopback host (RFC 8252 §7.3), or a private-use scheme with a dot for
 * native apps (RFC 8252 §7.1). Matching at /oauth/authorize is exact string equality.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'must use https (http is allowed on loopback hosts only)';
  if (/^[a-z][a-z0-9+-]*\.[a-z0-9+.-]+:$/i.test(url.protocol)) return null;
  return 'must use https, http on a loopback host, or a private-use scheme such as com.example.app:';
}

/** Adds OAuth answer parameters to a registered redirect URI, keeping its own query. */
export function buildRedirect(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
