import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { SdkSessionsModule } from '../sdk-sessions/sdk-sessions.module.js';
import { BotProfileController } from './bot-profile.controller.js';
import { BotProfileService } from './bot-profile.service.js';
import { ChatAttachmentRoute } from './chat-attachment.route.js';
import { ChatAttachmentService } from './chat-attachment.service.js';
import { WebChatPageRoute } from './web-chat-page.route.js';

/** The hosted chat page: its files, the bot's profile it shows, and the files users send from it. */
@Module({
  imports: [AuthModule, ConversationsModule, SdkSessionsModule],
  controllers: [BotProfileController],
  providers: [WebChatPageRoute, BotProfileService, ChatAttachmentService, ChatAttachmentRoute],
})
export class WebChatPageModule {}
