import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@platform/crypto';
import type { OAuthClient } from '@platform/database';
import { AuthorizationCodeRepository, TokenRepository } from '@platform/database';
import { Clock } from '@platform/accounts';
import { looksLikeToken } from '@platform/accounts';
import { TokenPair, TokenService } from '../tokens/token.service.js';
import { OAuthError } from '@platform/accounts';
import { isValidCodeVerifier, verifyS256 } from './pkce.js';

/** Body of a successful token answer (RFC 6749 §5.1). */
export interface OAuthTokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

type Invalid = { error: OAuthError };

/** The token endpoint's grants and the revocation endpoint, for an already authenticated client. */
@Injectable()
export class OAuthTokenService {
  constructor(
    private readonly codes: AuthorizationCodeRepository,
    private readonly tokens: TokenService,
    private readonly store: TokenRepository,
    private readonly clock: Clock,
  ) {}

  async grant(client: OAuthClient, body: Record<string, string>): Promise<OAuthTokenAnswer> {
    const grantType = body.grant_type;
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
    if (!client.grantTypes.includes(grantType)) throw new OAuthError('unauthorized_client', `this client may not use the ${grantType} grant`);
    const pair = grantType === 'authorization_code' ? await this.exchangeCode(client, body) : await this.refresh(client, body);
    return answer(pair);
  }

  /**
   * RFC 6749 §4.1.3 with RFC 7636 §4.6. The code is burnt by its first presentation, whatever the outcome;
   * a second presentation revokes every token issued from it (RFC 6749 §4.1.2).
   */
  private async exchangeCode(client: OAuthClient, body: Record<string, string>): Promise<TokenPair> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = body;
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (verifier !== undefined && !isValidCodeVerifier(verifier)) {
      throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters');
    }
    const invalid = (text: string): Invalid => ({ error: new OAuthError('invalid_grant', text) });
    if (!looksLikeToken('code', code)) throw invalid('The authorization code is invalid').error;
    const row = await this.codes.findByHash(sha256Hex(code));
    if (!row || row.clientId !== client.id) throw invalid('The authorization code is invalid').error;
    const now = this.clock.now();

    const result = await this.tokens.tokensInTransaction(async (db): Promise<TokenPair | Invalid | 'reused'> => {
      if (!(await this.codes.consume(row.id, now, db))) return 'reused';
      if (row.expiresAt <= now) return invalid('The authorization code has expired');
      if (row.redirectUri !== redirectUri) return invalid('redirect_uri differs from the one of the authorization request');
      if (row.codeChallenge) {
        if (!verifier || !verifyS256(verifier, row.codeChallenge)) return invalid('code_verifier does not match the code_challenge');
      } else if (verifier !== undefined) {
        return invalid('code_verifier sent for a code requested without code_challenge');
      }
      const grant = await this.store.createGrant({ kind: 'oauth', userId: row.userId, botId: row.botId, clientId: client.id, scope: row.scope }, db);
      await this.codes.setGrant(row.id, grant.id, db);
      return this.tokens.issuePair(grant, grant.scope, db, client.grantTypes.includes('refresh_token'));
    });

    if (result === 'reused') {
      const used = await this.codes.findByHash(row.codeHash);
      if (used?.grantId) await this.tokens.revokeGrant(used.grantId);
      throw invalid('The authorization code was already used; the tokens issued from it are revoked').error;
    }
    if ('error' in result) throw result.error;
    return result;
  }

  /** RFC 6749 §6 with rotation: every use returns a new refresh token; reuse of an old one revokes the grant. */
  private async refresh(client: OAuthClient, body: Record<string, string>): Promise<TokenPair> {
    if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const result = await this.tokens.rotate(body.refresh_token, client.id, body.scope);
    if (result.ok) return result.pair;
    if (result.reason === 'invalid_scope') throw new OAuthError('invalid_scope', 'scope exceeds the scope of the grant');
    throw new OAuthError('invalid_grant', result.reason === 'reused' ? 'The refresh token was already used; the grant is revoked' : 'The refresh token is invalid, expired or revoked');
  }

  /**
   * RFC 7009: revokes an access token (just that token) or a refresh token (its whole grant) issued to
   * this client. Unknown tokens and tokens of other clients are answered the same way, without effect.
   */
  async revoke(client: OAuthClient, body: Record<string, string>): Promise<void> {
    const token = body.token;
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    const now = this.clock.now();
    if (looksLikeToken('access', token)) {
      const row = await this.store.findAccessByHash(sha256Hex(token));
      if (row && row.clientId === client.id) await this.store.revokeAccessToken(row.id, now);
    } else if (looksLikeToken('refresh', token)) {
      const row = await this.store.findRefreshByHash(sha256Hex(token));
      if (row && row.clientId === client.id) await this.store.revokeGrant(row.grantId, now);
    }
  }
}

function answer(pair: TokenPair): OAuthTokenAnswer {
  return {
    access_token: pair.accessToken,
    token_type: 'Bearer',
    expires_in: pair.expiresIn,
    ...(pair.refreshToken ? { refresh_token: pair.refreshToken } : {}),
    scope: pair.scope,
  };
}
