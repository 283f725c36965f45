import { KeyObject, createPrivateKey } from 'node:crypto';

/** The fields of a Google service-account document the push service uses. */
export interface ServiceAccount {
  type: 'service_account';
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
  [key: string]: unknown;
}

export type ServiceAccountCheck = { ok: true; account: ServiceAccount } | { ok: false; problems: string[] };

const FIELD = 'notification.firebaseConfig.serviceAccount';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Checks a service-account document before it is stored. Every problem is named by field; none of
 * the messages quotes a value (the private key must never appear in an answer or a log line).
 */
export function checkServiceAccount(doc: unknown, opts: { allowInsecureTokenUri: boolean }): ServiceAccountCheck {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { ok: false, problems: [`${FIELD} must be the service-account JSON object`] };
  const d = doc as Record<string, unknown>;
  const problems: string[] = [];
  if (d.type !== 'service_account') problems.push(`${FIELD}.type must be "service_account"`);
  if (typeof d.project_id !== 'string' || !/^[a-z0-9][a-z0-9.:-]{0,99}$/i.test(d.project_id)) {
    problems.push(`${FIELD}.project_id must be the Firebase project id`);
  }
  if (typeof d.client_email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(d.client_email)) {
    problems.push(`${FIELD}.client_email must be the service account's e-mail address`);
  }
  if (typeof d.private_key !== 'string' || d.private_key.trim() === '') {
    problems.push(`${FIELD}.private_key is required`);
  } else if (!parseRsaKey(d.private_key)) {
    problems.push(`${FIELD}.private_key is not a PEM RSA private key`);
  }
  if (d.private_key_id !== undefined && typeof d.private_key_id !== 'string') problems.push(`${FIELD}.private_key_id must be a string`);
  const tokenUriProblem = checkTokenUri(d.token_uri, opts.allowInsecureTokenUri);
  if (tokenUriProblem) problems.push(tokenUriProblem);
  return problems.length ? { ok: false, problems } : { ok: true, account: d as ServiceAccount };
}

/** The key as a KeyObject when it is an unencrypted PEM RSA private key; null otherwise. */
export function parseRsaKey(pem: string): KeyObject | null {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' ? key : null;
  } catch {
    return null;
  }
}

function checkTokenUri(value: unknown, allowInsecure: boolean): string | null {
  const problem = `${FIELD}.token_uri must be an https URL${allowInsecure ? ' (or http on 127.0.0.1/localhost)' : ''}`;
  if (typeof value !== 'string') return problem;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return problem;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowInsecure && LOOPBACK_HOSTS.has(url.hostname)) return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) {
    return `${problem}; http://${url.hostname} is accepted only when PUSH_ALLOW_INSECURE_TOKEN_URI=true`;
  }
  return problem;
}
