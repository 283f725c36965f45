import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { FormOnlyMiddleware } from './form-only.middleware.js';
import { OAuthAuthorizeController } from './oauth-authorize.controller.js';
import { OAuthMetadataController } from './oauth-metadata.controller.js';
import { OAuthTokenController } from './oauth-token.controller.js';

/** The OAuth 2.0 authorization server on {auth_url}. */
@Module({ imports: [AuthModule], controllers: [OAuthAuthorizeController, OAuthTokenController, OAuthMetadataController] })
export class OAuthModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(FormOnlyMiddleware)
      .forRoutes({ path: 'oauth/token', method: RequestMethod.POST }, { path: 'oauth/revoke', method: RequestMethod.POST });
  }
}
