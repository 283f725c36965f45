import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { BotConfigController } from './bot-config.controller.js';
import { DeviceCallerGuard } from './device-caller.guard.js';
import { DevicesController } from './devices.controller.js';
import { NotificationsController } from './notifications.controller.js';
import { PushAdminController } from './push-admin.controller.js';
import { PushRpcClient } from './push-rpc.client.js';

/** Gateway side of push notifications: authenticates, validates, hands over to the push service. */
@Module({ imports: [AuthModule], controllers: [BotConfigController, DevicesController, NotificationsController, PushAdminController], providers: [PushRpcClient, DeviceCallerGuard] })
export class PushModule {}
