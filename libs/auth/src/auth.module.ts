import { Module } from '@nestjs/common';
import { AdminSessionService } from './admin/admin-session.service.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { ApiKeyGuard } from './api-keys/api-key.guard.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { Clock } from './clock.js';
import { AuthorizationRequestStore } from './oauth/authorization-request.store.js';
import { AuthorizationService } from './oauth/authorization.service.js';
import { OAuthClientService } from './oauth/oauth-client.service.js';
import { OAuthTokenService } from './oauth/oauth-token.service.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';
import { TokenService } from './tokens/token.service.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UserService } from './users/user.service.js';

const providers = [
  ApiKeyService,
  ApiKeyGuard,
  Clock,
  PasswordHasher,
  UserService,
  TokenService,
  AdminTokenGuard,
  AdminSessionService,
  RateLimiter,
  OAuthClientService,
  AuthorizationRequestStore,
  AuthorizationService,
  OAuthTokenService,
];

@Module({ providers, exports: providers })
export class AuthModule {}
