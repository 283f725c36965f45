// The console talks to the platform only through its public and admin HTTP API (docs/api.md): what it
// does, a script can do. The access token lives in this module's memory only; the refresh token is an
// HttpOnly cookie (Path=/v1/auth) page scripts cannot read, and `bp_session=1` beside it says one may exist.

import { ApiError } from './api-error.js';

export { ApiError };

export interface Bot {
  id: string;
  name: string;
  role: Role;
}
export type Role = 'viewer' | 'developer' | 'admin';
export interface Account {
  userId: string;
  email: string;
  bots: Bot[];
}

const ROLES: Role[] = ['viewer', 'developer', 'admin'];
export const roleAtLeast = (role: Role, needed: Role) => ROLES.indexOf(role) >= ROLES.indexOf(needed);

let accessToken: string | null = null;
let refreshing: Promise<boolean> | null = null;
let onSignedOut: () => void = () => {};

export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorOf(status: number, body: unknown): ApiError {
  const b = body as { message?: unknown; error_description?: unknown } | null;
  const message = typeof b?.message === 'string' ? b.message : typeof b?.error_description === 'string' ? b.error_description : `The server answered ${status}`;
  return new ApiError(status, message);
}

async function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** The password was right and the account signs in with a second factor: the form asks for the code. */
export class TotpRequiredError extends ApiError {}

/** Signs in; the refresh token is set as a cookie by the answer, never seen here. */
export async function signIn(email: string, password: string, totpCode?: string): Promise<void> {
  const res = await post('/v1/auth/login', { email, password, refresh_token_in_cookie: true, ...(totpCode ? { totp_code: totpCode } : {}) });
  const body = await parse(res);
  if (res.status === 401 && (body as { details?: { totp_required?: boolean } } | null)?.details?.totp_required) throw new TotpRequiredError(401, errorOf(401, body).message);
  if (!res.ok) throw errorOf(res.status, body);
  accessToken = (body as { access_token: string }).access_token;
}

/** Accepts an invitation: creates the account and signs it in (the refresh token again in the cookie). */
export async function acceptInvitation(token: string, password: string): Promise<void> {
  const res = await post('/v1/invitations/accept', { token, password, refresh_token_in_cookie: true });
  const body = await parse(res);
  if (!res.ok) throw errorOf(res.status, body);
  accessToken = (body as { access_token: string }).access_token;
}

/** What an invitation link is for, asked without an account. */
export async function lookupInvitation(token: string): Promise<{ email: string; bot: string; role: Role; expiresAt: string }> {
  const res = await post('/v1/invitations/lookup', { token });
  const body = await parse(res);
  if (!res.ok) throw errorOf(res.status, body);
  return body as { email: string; bot: string; role: Role; expiresAt: string };
}

/** Saves what a GET answers (a CSV export) as a file: read with the access token, handed to the browser as a download. */
export async function download(path: string, fallbackName: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(path, { credentials: 'same-origin', headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} }).catch(() => {
      throw new ApiError(0, 'The platform could not be reached; check your connection and try again');
    });
    if (res.status === 401 && attempt === 0 && (await refresh())) continue;
    if (!res.ok) throw errorOf(res.status, await parse(res));
    const name = fileNameOf(res.headers.get('content-disposition') ?? '') ?? fallbackName;
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return;
  }
}

/** The name a Content-Disposition gives: its UTF-8 `filename*` (a user's file may be named in any script), else `filename`. */
function fileNameOf(disposition: string): string | undefined {
  const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Malformed: the plain name below.
    }
  }
  return /filename="([^"]+)"/.exec(disposition)?.[1];
}

/**
 * Whether a session cookie may exist: the gateway sets a readable `bp_session=1` (no secret) beside the
 * HttpOnly refresh cookie and clears them together. Without it there is no session to refresh, and asking
 * would only earn a 401 (a red error in the browser's console on every signed-out load).
 */
function mayHaveSession(): boolean {
  return document.cookie.split(';').some((c) => c.trim() === 'bp_session=1');
}

/** A new access token from the session cookie; false when there is no live session (without asking, when there is none at all). */
export function refresh(): Promise<boolean> {
  if (!mayHaveSession()) {
    accessToken = null;
    return Promise.resolve(false);
  }
  refreshing ??= (async () => {
    try {
      // Refresh tokens rotate, and presenting a rotated one ends the session: tabs of the console
      // refresh one at a time (Web Locks), so each sends the cookie the previous one set.
      const res = navigator.locks ? await navigator.locks.request('bp-console-refresh', () => post('/v1/auth/refresh', {})) : await post('/v1/auth/refresh', {});
      if (!res.ok) {
        accessToken = null;
        return false;
      }
      accessToken = ((await res.json()) as { access_token: string }).access_token;
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export async function signOut(): Promise<void> {
  const token = accessToken;
  accessToken = null;
  await post('/v1/auth/logout', {}, token ?? undefined).catch(() => undefined);
}

/**
 * One API call with the access token; refreshes once on 401. Throws ApiError with the server's message.
 * A Blob body (a file the user picked) is sent as it is, with its own type: the browser streams it.
 */
export async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: {
          ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
          ...(body instanceof Blob ? { 'content-type': body.type } : body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'The platform could not be reached; check your connection and try again');
    }
    const parsed = await parse(res);
    if (res.status === 401 && attempt === 0 && (await refresh())) continue;
    if (res.status === 401) {
      onSignedOut();
      throw errorOf(401, parsed);
    }
    if (!res.ok) throw errorOf(res.status, parsed);
    return parsed as T;
  }
}

export const me = () => api<Account>('GET', '/v1/me');
