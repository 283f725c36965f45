import { Module } from '@nestjs/common';
import { AdminSessionService } from './admin/admin-session.service.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { ApiKeyGuard } from './api-keys/api-key.guard.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { Clock } from './clock.js';
import { AuthorizationCodeRepository } from './oauth/authorization-code.repository.js';
import { AuthorizationRequestStore } from './oauth/authorization-request.store.js';
import { AuthorizationService } from './oauth/authorization.service.js';
import { OAuthClientRepository } from './oauth/oauth-client.repository.js';
import { OAuthClientService } from './oauth/oauth-client.service.js';
import { OAuthTokenService } from './oauth/oauth-token.service.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';
import { TokenRepository } from './tokens/token.repository.js';
import { TokenService } from './tokens/token.service.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UserRepository } from './users/user.repository.js';
import { UserService } from './users/user.service.js';

const providers = [
  ApiKeyService,
  ApiKeyGuard,
  Clock,
  PasswordHasher,
  UserRepository,
  UserService,
  TokenRepository,
  TokenService,
  AdminTokenGuard,
  AdminSessionService,
  RateLimiter,
  OAuthClientRepository,
  OAuthClientService,
  AuthorizationRequestStore,
  AuthorizationCodeRepository,
  AuthorizationService,
  OAuthTokenService,
];

@Module({ providers, exports: providers })
export class AuthModule {}
