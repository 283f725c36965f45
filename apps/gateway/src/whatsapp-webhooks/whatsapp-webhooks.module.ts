import { Module } from '@nestjs/common';
import { MessageLifecyclePublisher } from '@platform/queue';
import { MessageReceiptsService } from './message-receipts.service.js';
import { WhatsAppWebhookRoute } from './whatsapp-webhook.route.js';

@Module({ providers: [WhatsAppWebhookRoute, MessageReceiptsService, MessageLifecyclePublisher] })
export class WhatsAppWebhooksModule {}
