import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { OAuthClientsController } from './oauth-clients.controller.js';

@Module({ imports: [AuthModule], controllers: [OAuthClientsController] })
export class OAuthClientsModule {}
