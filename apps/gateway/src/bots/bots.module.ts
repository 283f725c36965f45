import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotConversationService } from './bot-conversation.service.js';
import { BotConversationsController } from './bot-conversations.controller.js';
import { BotDefinitionController, BotDefinitionSchemaController } from './bot-definition.controller.js';
import { BotDefinitionService } from './bot-definition.service.js';
import { BotInputsModule } from './bot-inputs.module.js';
import { BotSecretsController } from './bot-secrets.controller.js';
import { BotSecretsService } from './bot-secrets.service.js';

/** Hosted bots: definitions and versions, secrets, and a conversation's trace, state, handoff and handback. */
@Module({
  imports: [AuthModule, BotInputsModule],
  controllers: [BotDefinitionSchemaController, BotDefinitionController, BotSecretsController, BotConversationsController],
  providers: [BotDefinitionService, BotSecretsService, BotConversationService],
})
export class BotsModule {}
