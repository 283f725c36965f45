import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { ReplyDelivery } from '@platform/conversations';
import { BotEventsModule } from '../bot-events/bot-events.module.js';
import { BotInputsModule } from '../bots/bot-inputs.module.js';
import { CallbacksModule } from '../callbacks/callbacks.module.js';
import { ChatTokenGuard } from '../sdk-sessions/chat-token.guard.js';
import { SdkSessionsModule } from '../sdk-sessions/sdk-sessions.module.js';
import { ConversationService } from './conversation.service.js';
import { ConversationSweeper } from './conversation-sweeper.js';
import { ConversationsController } from './conversations.controller.js';
import { WebChatController } from './web-chat.controller.js';

@Module({
  imports: [AuthModule, CallbacksModule, BotEventsModule, SdkSessionsModule, BotInputsModule],
  controllers: [ConversationsController, WebChatController],
  providers: [ConversationService, ReplyDelivery, ConversationSweeper, ChatTokenGuard],
  exports: [ConversationService],
})
export class ConversationsModule {}
