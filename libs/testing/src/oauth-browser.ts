import { createHash, randomBytes } from 'node:crypto';

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface ConsentForm {
  requestId: string;
  csrf: string;
  /** `name=value` of the anti-CSRF cookie the page set. */
  cookie: string;
}

/** What a browser sees after GET /oauth/authorize (redirects not followed). */
export interface AuthorizeAnswer {
  status: number;
  headers: Headers;
  html: string;
  location?: URL;
  form?: ConsentForm;
}

/** GET {authUrl}/oauth/authorize like a browser sent there by a client; reads the login and consent form. */
export async function openAuthorize(authUrl: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<AuthorizeAnswer> {
  const res = await fetch(`${authUrl}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual', headers });
  return readAnswer(res);
}

/** POSTs the consent form as a browser would (form body, the page's cookie). */
export async function submitConsent(
  authUrl: string,
  form: ConsentForm,
  fields: { email?: string; password?: string; decision?: string; csrf_token?: string },
  headers: Record<string, string> = {},
): Promise<AuthorizeAnswer> {
  const body = new URLSearchParams({ request_id: form.requestId, csrf_token: form.csrf, decision: 'approve', ...fields } as Record<string, string>);
  const res = await fetch(`${authUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie, ...headers },
    body,
  });
  return readAnswer(res);
}

/** The whole browser part: authorize, log in, approve; returns the code and state of the redirect. */
export async function authorizeCode(
  authUrl: string,
  params: Record<string, string>,
  login: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<{ code: string; state: string | null; location: URL }> {
  const page = await openAuthorize(authUrl, params, headers);
  if (!page.form) throw new Error(`authorize answered ${page.status} without a form: ${page.location ?? page.html.slice(0, 300)}`);
  const done = await submitConsent(authUrl, page.form, login, headers);
  const code = done.location?.searchParams.get('code');
  if (!code) throw new Error(`consent answered ${done.status} without a code: ${done.location ?? done.html.slice(0, 300)}`);
  return { code, state: done.location!.searchParams.get('state'), location: done.location! };
}

/** POST {authUrl}/oauth/token (or /oauth/revoke) with a form body; `basic` authenticates the client by HTTP Basic. */
export function oauthPost(
  authUrl: string,
  path: '/oauth/token' | '/oauth/revoke',
  fields: Record<string, string>,
  opts: { basic?: { id: string; secret: string }; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers };
  if (opts.basic) {
    const enc = (v: string) => encodeURIComponent(v);
    headers.authorization = `Basic ${Buffer.from(`${enc(opts.basic.id)}:${enc(opts.basic.secret)}`).toString('base64')}`;
  }
  return fetch(`${authUrl}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields) });
}

async function readAnswer(res: Response): Promise<AuthorizeAnswer> {
  const html = await res.text();
  const location = res.headers.get('location') ? new URL(res.headers.get('location')!) : undefined;
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  const form = requestId && csrf && cookie ? { requestId, csrf, cookie } : undefined;
  return { status: res.status, headers: res.headers, html, location, form };
}
