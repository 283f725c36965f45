import type { BotRole } from '@platform/database';

/** Roles on a bot, weakest first: each role may do what the ones before it may. */
export const BOT_ROLES: readonly BotRole[] = ['viewer', 'developer', 'admin'];

/** OAuth scopes, one per role: a token acts at most with the role its scope names (and never above the user's role). */
export const SCOPE_ROLES: Readonly<Record<string, BotRole>> = {
  'bot:read': 'viewer',
  'bot:write': 'developer',
  'bot:admin': 'admin',
};
export const SUPPORTED_SCOPES = Object.keys(SCOPE_ROLES);
export const ROLE_SCOPES: Readonly<Record<BotRole, string>> = { viewer: 'bot:read', developer: 'bot:write', admin: 'bot:admin' };

export function isBotRole(value: unknown): value is BotRole {
  return typeof value === 'string' && (BOT_ROLES as readonly string[]).includes(value);
}

export function roleRank(role: BotRole): number {
  return BOT_ROLES.indexOf(role);
}

/** Space-separated scope string → distinct scopes; null when any scope is unknown or the string is malformed. */
export function parseScope(scope: string): string[] | null {
  const parts = scope.split(' ');
  if (parts.some((p) => !(p in SCOPE_ROLES))) return null;
  return [...new Set(parts)];
}

/** Highest role a set of scopes allows (null for none). */
export function roleAllowedByScopes(scopes: readonly string[]): BotRole | null {
  let best: BotRole | null = null;
  for (const s of scopes) {
    const role = SCOPE_ROLES[s];
    if (role && (best === null || roleRank(role) > roleRank(best))) best = role;
  }
  return best;
}

/** Lowers each requested scope to what `role` may hold (a viewer asking bot:admin gets bot:read). */
export function capScopesToRole(scopes: readonly string[], role: BotRole): string[] {
  const capped = scopes.map((s) => (roleRank(SCOPE_ROLES[s]) > roleRank(role) ? ROLE_SCOPES[role] : s));
  return [...new Set(capped)];
}
