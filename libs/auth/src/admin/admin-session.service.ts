import { Injectable } from '@nestjs/common';
import { TokenRepository } from '@platform/database';
import { ROLE_SCOPES } from '@platform/accounts';
import { RotateResult, TokenPair, TokenService } from '../tokens/token.service.js';
import { TwoFactorService, UserService } from '@platform/accounts';

/** Dashboard sessions of bot administrators: password login, refresh, logout. */
@Injectable()
export class AdminSessionService {
  constructor(
    private readonly users: UserService,
    private readonly tokens: TokenService,
    private readonly grants: TokenRepository,
    private readonly twoFactor: TwoFactorService,
  ) {}

  /**
   * A token pair for the user, or null when e-mail or password is wrong. With two-factor sign-in on, the
   * code (TOTP or recovery code) is needed too: 'totp-required' without one, 'totp-invalid' with a wrong one.
   */
  async login(email: string, password: string, code?: string): Promise<TokenPair | null | 'totp-required' | 'totp-invalid'> {
    const user = await this.users.authenticate(email, password);
    if (!user) return null;
    const second = await this.twoFactor.check(user, code);
    if (second === 'required') return 'totp-required';
    if (second === 'invalid') return 'totp-invalid';
    return this.openSession(user.id);
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
