import { Module } from '@nestjs/common';
import { AdminSessionService } from './admin/admin-session.service.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { AuthCredentialsModule } from './auth-credentials.module.js';
import { AuthorizationRequestStore } from './oauth/authorization-request.store.js';
import { AuthorizationService } from './oauth/authorization.service.js';
import { OAuthTokenService } from './oauth/oauth-token.service.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';
import { TokenService } from './tokens/token.service.js';

const providers = [TokenService, AdminTokenGuard, AdminSessionService, RateLimiter, AuthorizationRequestStore, AuthorizationService, OAuthTokenService];

/** Everything the gateway authenticates with: credentials, tokens, OAuth and rate limits (reads AuthEnv and HttpEnv). */
@Module({ imports: [AuthCredentialsModule], providers, exports: [AuthCredentialsModule, ...providers] })
export class AuthModule {}
