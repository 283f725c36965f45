import { SetMetadata } from '@nestjs/common';

export const AUDIT_ACTION = 'platform:audit-action';

/** Names a route's action in the audit log when the name derived from its path would not say it well. */
export const AuditAs = (action: string) => SetMetadata(AUDIT_ACTION, action);

/** For a POST that changes nothing an administrator would look for (a stream ticket, asked on every page view): not audited. */
export const NotAudited = () => SetMetadata(AUDIT_ACTION, false);

/** Methods that change something: the ones the audit log records. */
export const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The action an administrator route performs, from its method and path pattern:
 * `DELETE /v1/bots/:botId/api-keys/:keyId` is "api-keys.delete", `POST /v1/bots/:botId/whatsapp/senders`
 * "whatsapp.senders.create", `POST /v1/bots/:botId/whatsapp/templates/sync` "whatsapp.templates.sync".
 * A POST to a plural noun creates; a POST to anything else (a verb: sync, publish, rollback) is that verb.
 */
export function auditActionOf(method: string, pattern: string): string {
  const parts = pattern
    .split('?')[0]!
    .split('/')
    .filter((p) => p && !p.startsWith(':'));
  while (parts.length && ['v1', 'bots', 'api'].includes(parts[0]!)) parts.shift();
  const base = parts.join('.') || 'root';
  const last = parts[parts.length - 1] ?? '';
  switch (method) {
    case 'DELETE':
      return `${base}.delete`;
    case 'PUT':
    case 'PATCH':
      return `${base}.update`;
    default:
      return /s$/.test(last) && !/[A-Z]/.test(last) ? `${base}.create` : base;
  }
}

/** The ids a route named besides its bot (`keyId=…`), for the log's target column. */
export function auditTargetOf(params: Record<string, unknown> | undefined): string | null {
  const named = Object.entries(params ?? {}).filter(([k, v]) => k !== 'botId' && typeof v === 'string' && v);
  return named.length ? named.map(([k, v]) => `${k}=${String(v).slice(0, 200)}`).join(' ') : null;
}
