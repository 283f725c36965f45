import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { OAuthAuthorizeController } from './oauth-authorize.controller.js';
import { OAuthMetadataController } from './oauth-metadata.controller.js';
import { OAuthTokenController } from './oauth-token.controller.js';

/** The OAuth 2.0 authorization server on {auth_url}. Its form-only body rule is a Fastify hook (form-only.hook.ts) that create-gateway.ts installs before the routes. */
@Module({ imports: [AuthModule], controllers: [OAuthAuthorizeController, OAuthTokenController, OAuthMetadataController] })
export class OAuthModule {}
