import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotWebhooksModule } from '../bot-webhooks/bot-webhooks.module.js';
import { ChatTokenGuard } from './chat-token.guard.js';
import { SdkSessionService } from './sdk-session.service.js';
import { SdkSessionsController } from './sdk-sessions.controller.js';
import { SessionSweeper } from './session-sweeper.js';
import { StreamUrls } from './stream-url.js';

@Module({
  imports: [AuthModule, BotWebhooksModule],
  controllers: [SdkSessionsController],
  providers: [SdkSessionService, ChatTokenGuard, StreamUrls, SessionSweeper],
  exports: [SdkSessionService],
})
export class SdkSessionsModule {}
