import type { AuthGrant, TokenRepository } from '@platform/database';

/** An access or refresh token row as the fake keeps it (only the token's hash, as the tables do). */
export interface StoredToken {
  id: string;
  tokenHash: string;
  grantId: string;
  /** Access tokens only. */
  userId?: string;
  clientId: string | null;
  scope: string;
  expiresAt: Date;
  revokedAt: Date | null;
  /** Refresh tokens only. */
  rotatedAt?: Date | null;
}

/**
 * TokenRepository in memory, for unit specs of the services over it: rows keyed by hash, as the
 * unique indexes of the tables are, with the grant joined in as the real queries include it. The
 * rows are public so that a spec can look at what was stored (never a token in clear).
 */
export class InMemoryTokenRepository {
  readonly grants: AuthGrant[] = [];
  readonly access: StoredToken[] = [];
  readonly refresh: StoredToken[] = [];
  /** Runs as markRotated begins: a spec races a second rotation of the same token here. */
  beforeMarkRotated?: () => void;

  /** `now`: the time a grant is created at (the spec's clock). */
  constructor(private readonly now: () => Date) {}

  /** This fake typed as the repository the services take. */
  asRepository(): TokenRepository {
    return this as unknown as TokenRepository;
  }

  async createGrant(d: Omit<AuthGrant, 'id' | 'createdAt' | 'revokedAt'>): Promise<AuthGrant> {
    const grant = { ...d, id: `grant-${this.grants.length}`, createdAt: this.now(), revokedAt: null } as AuthGrant;
    this.grants.push(grant);
    return grant;
  }

  async findGrant(id: string): Promise<AuthGrant | null> {
    return this.grants.find((g) => g.id === id) ?? null;
  }

  async createAccessToken(d: Omit<StoredToken, 'id' | 'revokedAt' | 'rotatedAt'>): Promise<StoredToken> {
    const row = { ...d, id: `at-${this.access.length}`, revokedAt: null };
    this.access.push(row);
    return row;
  }

  async createRefreshToken(d: Omit<StoredToken, 'id' | 'revokedAt' | 'rotatedAt' | 'userId'>): Promise<StoredToken> {
    const row = { ...d, id: `rt-${this.refresh.length}`, revokedAt: null, rotatedAt: null };
    this.refresh.push(row);
    return row;
  }

  async findAccessByHash(hash: string) {
    return this.withGrant(this.access.find((r) => r.tokenHash === hash));
  }

  async findRefreshByHash(hash: string) {
    return this.withGrant(this.refresh.find((r) => r.tokenHash === hash));
  }

  /** False when the token was already exchanged or revoked, as the real conditional update says. */
  async markRotated(id: string, at: Date): Promise<boolean> {
    this.beforeMarkRotated?.();
    const row = this.refresh.find((r) => r.id === id && !r.rotatedAt && !r.revokedAt);
    if (row) row.rotatedAt = at;
    return !!row;
  }

  async revokeGrant(grantId: string, at: Date): Promise<void> {
    for (const row of [...this.grants.filter((g) => g.id === grantId), ...this.access.filter((a) => a.grantId === grantId), ...this.refresh.filter((r) => r.grantId === grantId)]) {
      row.revokedAt ??= at;
    }
  }

  async revokeAccessToken(id: string, at: Date): Promise<void> {
    const row = this.access.find((a) => a.id === id);
    if (row) row.revokedAt ??= at;
  }

  /** No isolation in memory: the callback runs with a stand-in for the transaction client. */
  transaction<T>(fn: (db: never) => Promise<T>): Promise<T> {
    return fn('tx' as never);
  }

  private withGrant(row: StoredToken | undefined) {
    return row ? { ...row, grant: this.grants.find((g) => g.id === row.grantId)! } : null;
  }
}
