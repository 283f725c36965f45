import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { OAuthAuthorizeController } from './oauth-authorize.controller.js';
import { OAuthMetadataController } from './oauth-metadata.controller.js';
import { OAuthTokenController } from './oauth-token.controller.js';

/** The OAuth 2.0 authorization server on {auth_url}. Its form-only body rule is a Fastify hook: oauth/form-only.hook.ts. */
@Module({ imports: [AuthModule], controllers: [OAuthAuthorizeController, OAuthTokenController, OAuthMetadataController] })
export class OAuthModule {}
