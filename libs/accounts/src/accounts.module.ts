import { Module } from '@nestjs/common';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { KeyRevocations } from './api-keys/key-revocations.js';
import { Clock } from './clock.js';
import { OAuthClientService } from './oauth/oauth-client.service.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UserService } from './users/user.service.js';
import { TwoFactorService } from './two-factor/two-factor.service.js';

const providers = [ApiKeyService, KeyRevocations, Clock, PasswordHasher, UserService, OAuthClientService, TwoFactorService];

/**
 * Administrators, bot API keys and OAuth clients: what the CLI administers and the gateway's guards
 * and OAuth server check against. It reads no token lifetime or rate limit (AuthEnv).
 */
@Module({ providers, exports: providers })
export class AccountsModule {}
