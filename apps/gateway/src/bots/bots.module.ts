import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotConversationService } from './bot-conversation.service.js';
import { BotConversationsController } from './bot-conversations.controller.js';
import { BotDefinitionController, BotDefinitionSchemaController } from './bot-definition.controller.js';
import { BotDefinitionService } from './bot-definition.service.js';
import { BotBuilderController, BotTryStreamController } from './bot-builder.controller.js';
import { StreamTicketStore } from '../message-stream/stream-ticket.store.js';
import { BotTryService } from './bot-try.service.js';
import { BotInputsModule } from './bot-inputs.module.js';
import { CallbacksModule } from '../callbacks/callbacks.module.js';
import { ConversationHandoffEvents } from './conversation-handoff-events.js';
import { BotSecretsController } from './bot-secrets.controller.js';
import { BotSecretsService } from './bot-secrets.service.js';

/** Hosted bots: definitions and versions, secrets, and a conversation's trace, state, handoff and handback. */
@Module({
  imports: [AuthModule, BotInputsModule, CallbacksModule],
  controllers: [BotDefinitionSchemaController, BotDefinitionController, BotSecretsController, BotConversationsController, BotBuilderController, BotTryStreamController],
  providers: [BotTryService, StreamTicketStore, BotDefinitionService, BotSecretsService, BotConversationService, ConversationHandoffEvents],
  exports: [ConversationHandoffEvents],
})
export class BotsModule {}
