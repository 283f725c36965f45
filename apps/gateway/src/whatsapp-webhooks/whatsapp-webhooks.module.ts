import { Module } from '@nestjs/common';
import { MessageLifecyclePublisher } from '@platform/queue';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { InboundMessagesService } from './inbound-messages.service.js';
import { MessageReceiptsService } from './message-receipts.service.js';
import { WhatsAppWebhookRoute } from './whatsapp-webhook.route.js';

@Module({ imports: [ConversationsModule], providers: [WhatsAppWebhookRoute, MessageReceiptsService, InboundMessagesService, MessageLifecyclePublisher] })
export class WhatsAppWebhooksModule {}
