import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotWebhookController } from './bot-webhook.controller.js';
import { MessageDeliveryOrder } from './message-delivery-order.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhookDispatcher } from './webhook-dispatcher.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookSettingsService } from './webhook-settings.service.js';

@Module({
  imports: [AuthModule],
  controllers: [BotWebhookController],
  providers: [WebhookDispatcher, WebhookSender, WebhookDeliveryWorker, WebhookSettingsService, MessageDeliveryOrder],
  exports: [WebhookDispatcher],
})
export class BotWebhooksModule {}
