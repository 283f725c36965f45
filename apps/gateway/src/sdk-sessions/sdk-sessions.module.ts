import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotInputsModule } from '../bots/bot-inputs.module.js';
import { CallbacksModule } from '../callbacks/callbacks.module.js';
import { ChatTokenGuard } from './chat-token.guard.js';
import { SdkSessionService } from './sdk-session.service.js';
import { SdkSessionsController } from './sdk-sessions.controller.js';
import { SessionSweeper } from './session-sweeper.js';
import { StreamUrls } from './stream-url.js';

@Module({
  imports: [AuthModule, CallbacksModule, BotInputsModule],
  controllers: [SdkSessionsController],
  providers: [SdkSessionService, ChatTokenGuard, StreamUrls, SessionSweeper],
  exports: [SdkSessionService],
})
export class SdkSessionsModule {}
