import { Module } from '@nestjs/common';
import { AdminSessionService } from './admin/admin-session.service.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { AccountsModule } from '@platform/accounts';
import { ApiKeyGuard } from './api-keys/api-key.guard.js';
import { AuthorizationRequestStore } from './oauth/authorization-request.store.js';
import { AuthorizationService } from './oauth/authorization.service.js';
import { OAuthTokenService } from './oauth/oauth-token.service.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';
import { TokenService } from './tokens/token.service.js';

const providers = [ApiKeyGuard, TokenService, AdminTokenGuard, AdminSessionService, RateLimiter, AuthorizationRequestStore, AuthorizationService, OAuthTokenService];

/** What the gateway authenticates with: guards, tokens, the OAuth server and rate limits, over the accounts (reads AuthEnv and HttpEnv). */
@Module({ imports: [AccountsModule], providers, exports: [AccountsModule, ...providers] })
export class AuthModule {}
