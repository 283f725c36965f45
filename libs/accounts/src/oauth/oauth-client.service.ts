import { Injectable } from '@nestjs/common';
import { safeEqual, sha256Hex } from '@platform/crypto';
import type { OAuthClient, OAuthClientType } from '@platform/database';
import { OAuthClientRepository } from '@platform/database';
import { Clock } from '../clock.js';
import { SUPPORTED_SCOPES } from '../roles.js';
import { generateSecret } from '../tokens/token-format.js';
import { ClientCredentials } from './client-credentials.js';
import { OAuthClientInputError } from './oauth-client-input.error.js';
import { OAuthError } from './oauth-error.js';
import { redirectUriProblem } from './redirect-uris.js';

export const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;

export interface RegisterClientInput {
  name: string;
  type: OAuthClientType;
  redirectUris: string[];
  grantTypes?: string[];
  scopes?: string[];
}

/** OAuth clients of a bot: registration (secret shown once, stored hashed), listing, revocation, authentication. */
@Injectable()
export class OAuthClientService {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly clock: Clock,
  ) {}

  async register(botId: string, input: RegisterClientInput): Promise<{ client: OAuthClient; clientSecret?: string }> {
    const name = input.name.trim();
    if (!name || name.length > 100) throw new OAuthClientInputError('name must be 1 to 100 characters');
    if (input.type !== 'confidential' && input.type !== 'public') throw new OAuthClientInputError('type must be confidential or public');
    const redirectUris = [...new Set(input.redirectUris)];
    if (redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS) {
      throw new OAuthClientInputError(`redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
    }
    redirectUris.forEach((uri, i) => {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthClientInputError(`redirect_uris[${i}] ${problem}`);
    });
    const grantTypes = [...new Set(input.grantTypes ?? SUPPORTED_GRANT_TYPES)];
    if (!grantTypes.includes('authorization_code') || grantTypes.some((g) => !SUPPORTED_GRANT_TYPES.includes(g))) {
      throw new OAuthClientInputError(`grant_types must include authorization_code and may add refresh_token`);
    }
    const scopes = [...new Set(input.scopes ?? SUPPORTED_SCOPES)];
    if (scopes.length === 0 || scopes.some((s) => !SUPPORTED_SCOPES.includes(s))) {
      throw new OAuthClientInputError(`scopes must be some of ${SUPPORTED_SCOPES.join(', ')}`);
    }
    const secret = input.type === 'confidential' ? generateSecret('clientSecret') : undefined;
    const client = await this.clients.create({
      botId,
      clientId: generateSecret('clientId', 16).value,
      name,
      type: input.type,
      secretHash: secret?.hash ?? null,
      redirectUris,
      grantTypes,
      scopes,
    });
    return { client, clientSecret: secret?.value };
  }

  list(botId: string) {
    return this.clients.listByBot(botId);
  }

  revoke(botId: string, id: string) {
    return this.clients.revoke(botId, id, this.clock.now());
  }

  /** A live client by its public client_id (the authorization endpoint), or null. */
  async findActive(clientId: string): Promise<OAuthClient | null> {
    if (clientId.length > 200) return null;
    const client = await this.clients.findByClientId(clientId);
    return client && !client.revokedAt ? client : null;
  }

  /** The client these credentials authenticate; invalid_client otherwise (one answer for every failure). */
  async authenticate(creds: ClientCredentials): Promise<OAuthClient> {
    const basic = creds.method === 'client_secret_basic';
    const fail = () => new OAuthError('invalid_client', 'Client authentication failed', basic);
    const client = await this.findActive(creds.clientId);
    if (!client) throw fail();
    if (client.type === 'public') {
      if (creds.clientSecret !== undefined) throw fail();
      return client;
    }
    if (creds.clientSecret === undefined || !client.secretHash) throw fail();
    if (!safeEqual(sha256Hex(creds.clientSecret), client.secretHash)) throw fail();
    return client;
  }
}
