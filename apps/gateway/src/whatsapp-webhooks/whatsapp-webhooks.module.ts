import { Module } from '@nestjs/common';
import { MessageReceiptsService } from './message-receipts.service.js';
import { WhatsAppWebhookRoute } from './whatsapp-webhook.route.js';

@Module({ providers: [WhatsAppWebhookRoute, MessageReceiptsService] })
export class WhatsAppWebhooksModule {}
