import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotWebhookController } from './bot-webhook.controller.js';
import { CallbackLogService } from './callback-log.service.js';
import { CallbackSettingsService } from './callback-settings.service.js';
import { CallbackUrlChecker } from './callback-url.checker.js';
import { CallbacksController } from './callbacks.controller.js';
import { PostbacksController } from './postbacks.controller.js';
import { WebhookDispatcher } from './webhook-dispatcher.service.js';

/** Settings, delivery log and queueing of bot webhook calls and postbacks; the channel worker sends them. */
@Module({
  imports: [AuthModule],
  controllers: [BotWebhookController, PostbacksController, CallbacksController],
  providers: [CallbackSettingsService, CallbackLogService, CallbackUrlChecker, WebhookDispatcher],
  exports: [WebhookDispatcher, CallbackUrlChecker, CallbackSettingsService],
})
export class CallbacksModule {}
