import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PushPatterns } from '@platform/contracts';
import type {
  NotificationStatusMessage,
  PushRpcRequest,
  RegisterDeviceMessage,
  SaveConfigMessage,
  SendNotificationDto,
  TestNotificationDto,
  UnregisterDeviceMessage,
} from '@platform/contracts';
import { PushConfigService } from '../config/push-config.service.js';
import { DeviceService } from '../devices/device.service.js';
import { NotificationService } from '../notifications/notification.service.js';
import { RpcOnce } from './rpc-once.js';

/** The push service's side of the gateway's requests (authenticated there; bot id comes from the gateway). */
@Controller()
export class PushRpcController {
  constructor(
    private readonly once: RpcOnce,
    private readonly configs: PushConfigService,
    private readonly devices: DeviceService,
    private readonly notifications: NotificationService,
  ) {}

  @MessagePattern(PushPatterns.saveConfig)
  saveConfig(@Payload() req: PushRpcRequest<SaveConfigMessage>) {
    return this.once.run(req, () => this.configs.save(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.getConfig)
  getConfig(@Payload() req: PushRpcRequest<Record<string, never>>) {
    return this.once.run(req, () => this.configs.view(req.botId));
  }

  @MessagePattern(PushPatterns.deleteConfig)
  deleteConfig(@Payload() req: PushRpcRequest<Record<string, never>>) {
    return this.once.run(req, () => this.configs.remove(req.botId));
  }

  @MessagePattern(PushPatterns.registerDevice)
  registerDevice(@Payload() req: PushRpcRequest<RegisterDeviceMessage>) {
    return this.once.run(req, () => this.devices.register(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.unregisterDevice)
  unregisterDevice(@Payload() req: PushRpcRequest<UnregisterDeviceMessage>) {
    return this.once.run(req, () => this.devices.unregister(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.sendNotification)
  send(@Payload() req: PushRpcRequest<SendNotificationDto>) {
    return this.once.run(req, () => this.notifications.send(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.notificationStatus)
  status(@Payload() req: PushRpcRequest<NotificationStatusMessage>) {
    return this.once.run(req, () => this.notifications.status(req.botId, req.body.notificationId));
  }

  @MessagePattern(PushPatterns.testNotification)
  test(@Payload() req: PushRpcRequest<TestNotificationDto>) {
    return this.once.run(req, () => this.notifications.test(req.botId, req.body));
  }
}
