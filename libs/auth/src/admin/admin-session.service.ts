import { Injectable } from '@nestjs/common';
import { TokenRepository } from '@platform/database';
import { ROLE_SCOPES } from '@platform/accounts';
import { RotateResult, TokenPair, TokenService } from '../tokens/token.service.js';
import { UserService } from '@platform/accounts';

/** Dashboard sessions of bot administrators: password login, refresh, logout. */
@Injectable()
export class AdminSessionService {
  constructor(
    private readonly users: UserService,
    private readonly tokens: TokenService,
    private readonly grants: TokenRepository,
  ) {}

  /** A token pair for the user, or null when e-mail or password is wrong. */
  async login(email: string, password: string): Promise<TokenPair | null> {
    const user = await this.users.authenticate(email, password);
    return user ? this.openSession(user.id) : null;
  }

  /** A session of the user over every bot they have a role on (each request is checked against that role). */
  async openSession(userId: string): Promise<TokenPair> {
    const grant = await this.grants.createGrant({ kind: 'login', userId, botId: null, clientId: null, scope: ROLE_SCOPES.admin });
    return this.tokens.issuePair(grant);
  }

  refresh(refreshToken: string): Promise<RotateResult> {
    return this.tokens.rotate(refreshToken, null);
  }

  /** Ends the session of a dashboard access token; false when the token is not a live dashboard token. */
  async logout(accessToken: string): Promise<boolean> {
    const principal = await this.tokens.verifyAccessToken(accessToken);
    if (!principal || principal.clientId !== null) return false;
    await this.tokens.revokeGrant(principal.grantId);
    return true;
  }
}
