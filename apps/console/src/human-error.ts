import type { ApiError } from './api-error.js';

/** An API error as a person reads it: what happened, the server's reason as a sentence, and what to do. */
export interface HumanError {
  title: string;
  detail?: string;
  /** The session is gone: the notice offers to sign in again. */
  signIn?: boolean;
}

/**
 * "no sender has a wabaId" → "No sender has a wabaId." (the API words its reasons as clauses). A reason
 * that starts with a field's name ("quickReplies must…", "image.url must…") keeps it as the API spells it:
 * it is what a developer looks up in the API reference.
 */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = FIELD_FIRST.test(t) ? t : t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(first) ? first : `${first}.`;
}

/** A first word that is a field path: camelCase, or with a `.` or `[` in it. */
const FIELD_FIRST = /^[a-z][A-Za-z0-9]*(?:[A-Z]|[.[])\S*\s/;

/**
 * The words for a failed call, by its HTTP status. Never a bare status code: the status picks the
 * sentence, the API's own message (which names the field or thing at fault) follows as its reason.
 * `signingIn`: the error of the sign-in form, where a 401 is a wrong password, not a lost session.
 */
export function humanError(error: ApiError, signingIn = false): HumanError {
  const reason = error.message ? sentence(error.message) : undefined;
  const s = error.status;
  if (s === 0) return { title: 'The platform could not be reached.', detail: 'Check your connection, then try again.' };
  if (s === 401 && signingIn) return { title: reason ?? 'That e-mail and password do not match an account.' };
  if (s === 401) return { title: 'Your session has ended.', detail: 'For your security you were signed out. Sign in again to go on.', signIn: true };
  if (s === 403) return { title: 'Your role on this bot does not allow this.', detail: reason };
  if (s === 404) return { title: 'This is not there any more.', detail: reason ? `${reason} It may have been deleted; reload the page.` : 'It may have been deleted; reload the page.' };
  if (s === 409) return { title: 'That clashes with what is already there.', detail: reason };
  if (s === 413) return { title: 'That is too large to send.', detail: reason };
  if (s === 429) return { title: 'Too many requests at once.', detail: 'Wait a few seconds, then try again.' };
  if (s === 503 || s === 502 || s === 504) return { title: 'The platform is busy or a part of it is down.', detail: 'Try again in a minute. Nothing was changed.' };
  if (s >= 500) return { title: 'Something went wrong on the platform’s side.', detail: 'Try again; if it keeps happening, tell the platform’s operator.' };
  return { title: 'That could not be done.', detail: reason };
}
