import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-keys/api-key.guard.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { KeyRevocations } from './api-keys/key-revocations.js';
import { Clock } from './clock.js';
import { OAuthClientService } from './oauth/oauth-client.service.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UserService } from './users/user.service.js';

const providers = [ApiKeyService, KeyRevocations, ApiKeyGuard, Clock, PasswordHasher, UserService, OAuthClientService];

/**
 * Users, API keys and OAuth clients: what the CLI administers. It reads no token lifetime or rate
 * limit (AuthEnv), so an app that imports only this module need not compose AuthEnv.
 */
@Module({ providers, exports: providers })
export class AuthCredentialsModule {}
