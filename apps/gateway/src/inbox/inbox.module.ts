import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotInputsModule } from '../bots/bot-inputs.module.js';
import { BotsModule } from '../bots/bots.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { InboxController } from './inbox.controller.js';
import { InboxService } from './inbox.service.js';

/** The console's inbox over hosted bots' conversations. */
@Module({
  imports: [AuthModule, BotInputsModule, BotsModule, ConversationsModule],
  controllers: [InboxController],
  providers: [InboxService],
})
export class InboxModule {}
