import { Injectable } from '@nestjs/common';
import { AuthEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import type { AuthGrant, Db } from '@platform/database';
import { TokenRepository } from '@platform/database';
import { Clock } from '@platform/accounts';
import { parseScope } from '@platform/accounts';
import { generateSecret, looksLikeToken } from '@platform/accounts';

export interface TokenPair {
  accessToken: string;
  /** Absent when the grant does not allow refreshing (an OAuth client without the refresh_token grant). */
  refreshToken?: string;
  expiresIn: number;
  scope: string;
}

/** What a valid access token stands for. `botId` null: any bot the user has a role on (dashboard login). */
export interface AccessPrincipal {
  tokenId: string;
  grantId: string;
  userId: string;
  botId: string | null;
  clientId: string | null;
  scopes: string[];
}

export type RotateResult = { ok: true; pair: TokenPair; grant: AuthGrant } | { ok: false; reason: 'invalid' | 'reused' | 'invalid_scope' };

/** Issues, checks, rotates and revokes the opaque access and refresh tokens of a grant. */
@Injectable()
export class TokenService {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly env: AuthEnv,
    private readonly clock: Clock,
  ) {}

  /** A new access + refresh token pair in `grant`; the access token may carry a narrower scope than the grant. */
  async issuePair(grant: AuthGrant, accessScope = grant.scope, db?: Db, withRefresh = true): Promise<TokenPair> {
    const now = this.clock.now().getTime();
    const access = generateSecret('access');
    const refresh = withRefresh ? generateSecret('refresh') : undefined;
    await this.tokens.createAccessToken(
      {
        tokenHash: access.hash,
        grantId: grant.id,
        userId: grant.userId,
        clientId: grant.clientId,
        scope: accessScope,
        expiresAt: new Date(now + this.env.AUTH_ACCESS_TOKEN_TTL_SECONDS * 1000),
      },
      db,
    );
    if (refresh) {
      await this.tokens.createRefreshToken(
        {
          tokenHash: refresh.hash,
          grantId: grant.id,
          clientId: grant.clientId,
          scope: grant.scope,
          expiresAt: new Date(now + this.env.AUTH_REFRESH_TOKEN_TTL_SECONDS * 1000),
        },
        db,
      );
    }
    return { accessToken: access.value, refreshToken: refresh?.value, expiresIn: this.env.AUTH_ACCESS_TOKEN_TTL_SECONDS, scope: accessScope };
  }

  /** The principal of a live access token, or null (unknown, expired, revoked, or its grant revoked). */
  async verifyAccessToken(token: string): Promise<AccessPrincipal | null> {
    if (!looksLikeToken('access', token)) return null;
    const row = await this.tokens.findAccessByHash(sha256Hex(token));
    if (!row || row.revokedAt || row.grant.revokedAt || row.expiresAt <= this.clock.now()) return null;
    return {
      tokenId: row.id,
      grantId: row.grantId,
      userId: row.userId,
      botId: row.grant.botId,
      clientId: row.clientId,
      scopes: row.scope.split(' '),
    };
  }

  /**
   * Exchanges a refresh token for a new pair (rotation). `clientId` is the authenticated OAuth client
   * (null for dashboard sessions) and must be the one the token was issued to. Presenting a token that was
   * already exchanged revokes the whole grant: either the client or an attacker holds a stolen copy.
   */
  async rotate(refreshToken: string, clientId: string | null, requestedScope?: string): Promise<RotateResult> {
    if (!looksLikeToken('refresh', refreshToken)) return { ok: false, reason: 'invalid' };
    const row = await this.tokens.findRefreshByHash(sha256Hex(refreshToken));
    const now = this.clock.now();
    if (!row || row.clientId !== clientId) return { ok: false, reason: 'invalid' };
    if (row.rotatedAt) {
      await this.tokens.revokeGrant(row.grantId, now);
      return { ok: false, reason: 'reused' };
    }
    if (row.revokedAt || row.grant.revokedAt || row.expiresAt <= now) return { ok: false, reason: 'invalid' };
    let accessScope = row.scope;
    if (requestedScope !== undefined) {
      const requested = parseScope(requestedScope);
      const granted = row.scope.split(' ');
      if (!requested || requested.some((s) => !granted.includes(s))) return { ok: false, reason: 'invalid_scope' };
      accessScope = requested.join(' ');
    }
    const grant = row.grant;
    const pair = await this.tokensInTransaction(async (db) => {
      if (!(await this.tokens.markRotated(row.id, now, db))) return null;
      return this.issuePair(grant, accessScope, db);
    });
    if (!pair) {
      // Lost a race with another exchange of the same token: that is a reuse too.
      await this.tokens.revokeGrant(row.grantId, now);
      return { ok: false, reason: 'reused' };
    }
    return { ok: true, pair, grant };
  }

  async revokeGrant(grantId: string): Promise<void> {
    await this.tokens.revokeGrant(grantId, this.clock.now());
  }

  async revokeAccessToken(tokenId: string): Promise<void> {
    await this.tokens.revokeAccessToken(tokenId, this.clock.now());
  }

  /** Runs `fn` in one database transaction (the repository's Prisma client). */
  tokensInTransaction<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.tokens.transaction(fn);
  }
}
