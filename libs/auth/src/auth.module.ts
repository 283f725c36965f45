import { Module } from '@nestjs/common';
import { AdminSessionService } from './admin/admin-session.service.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { ApiKeyGuard } from './api-keys/api-key.guard.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { Clock } from './clock.js';
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
];

@Module({ providers, exports: providers })
export class AuthModule {}
