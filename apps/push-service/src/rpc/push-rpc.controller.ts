import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { PushPatterns, isTransientPushFailure } from '@platform/contracts';
import type {
  NotificationStatusMessage,
  PushRpcRequest,
  SetFcmQuotaDto,
  PushOutcome,
  RegisterDeviceMessage,
  SaveConfigMessage,
  SendNotificationDto,
  TestNotificationDto,
  UnregisterDeviceMessage,
} from '@platform/contracts';
import { PushConfigService } from '../service-accounts/push-config.service.js';
import { DeviceService } from '../devices/device.service.js';
import { NotificationService } from '../notifications/notification.service.js';
import { outageFailure } from './outage-failure.js';

/**
 * The push service's side of the gateway's requests (authenticated there; bot id comes from the
 * gateway). Each request reaches one replica: they come off a work queue whose consumers compete.
 */
@Controller()
export class PushRpcController {
  private readonly logger = new Logger('PushRpc');

  constructor(
    private readonly configs: PushConfigService,
    private readonly devices: DeviceService,
    private readonly notifications: NotificationService,
  ) {}

  @MessagePattern(PushPatterns.saveConfig)
  saveConfig(@Payload() req: PushRpcRequest<SaveConfigMessage>) {
    return this.answer(PushPatterns.saveConfig, req, () => this.configs.save(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.getConfig)
  getConfig(@Payload() req: PushRpcRequest<Record<string, never>>) {
    return this.answer(PushPatterns.getConfig, req, () => this.configs.view(req.botId));
  }

  @MessagePattern(PushPatterns.deleteConfig)
  deleteConfig(@Payload() req: PushRpcRequest<Record<string, never>>) {
    return this.answer(PushPatterns.deleteConfig, req, () => this.configs.remove(req.botId));
  }

  @MessagePattern(PushPatterns.getFcmQuota)
  getFcmQuota(@Payload() req: PushRpcRequest<Record<string, never>>) {
    return this.answer(PushPatterns.getFcmQuota, req, () => this.configs.quota(req.botId));
  }

  @MessagePattern(PushPatterns.setFcmQuota)
  setFcmQuota(@Payload() req: PushRpcRequest<SetFcmQuotaDto>) {
    return this.answer(PushPatterns.setFcmQuota, req, () => this.configs.setQuota(req.botId, req.body.perMinute));
  }

  @MessagePattern(PushPatterns.registerDevice)
  registerDevice(@Payload() req: PushRpcRequest<RegisterDeviceMessage>) {
    return this.answer(PushPatterns.registerDevice, req, () => this.devices.register(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.unregisterDevice)
  unregisterDevice(@Payload() req: PushRpcRequest<UnregisterDeviceMessage>) {
    return this.answer(PushPatterns.unregisterDevice, req, () => this.devices.unregister(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.sendNotification)
  send(@Payload() req: PushRpcRequest<SendNotificationDto>) {
    return this.answer(PushPatterns.sendNotification, req, () => this.notifications.send(req.botId, req.body));
  }

  @MessagePattern(PushPatterns.notificationStatus)
  status(@Payload() req: PushRpcRequest<NotificationStatusMessage>) {
    return this.answer(PushPatterns.notificationStatus, req, () => this.notifications.status(req.botId, req.body.notificationId));
  }

  @MessagePattern(PushPatterns.testNotification)
  test(@Payload() req: PushRpcRequest<TestNotificationDto>) {
    return this.answer(PushPatterns.testNotification, req, () => this.notifications.test(req.botId, req.body));
  }

  /**
   * The handler's outcome as the answer. A transient failure (isTransientPushFailure), or a thrown error
   * (mapped by outageFailure), is the request's error instead: nothing durable was done, so it must not be kept
   * as the answer of an Idempotency-Key, and a retry runs the request again.
   */
  private async answer<T>(pattern: string, req: PushRpcRequest<unknown>, work: () => Promise<PushOutcome<T>>): Promise<PushOutcome<T>> {
    let result: PushOutcome<T>;
    try {
      result = await work();
    } catch (err) {
      this.logger.error(`${pattern} for bot ${req.botId} failed: ${describe(err)}`);
      throw new RpcException(outageFailure(err));
    }
    if (result.kind !== 'done' && isTransientPushFailure(result)) throw new RpcException(result);
    return result;
  }
}

/** Error name and the start of its message (never a payload: requests may carry a sealed credential). */
function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message.slice(0, 300)}` : String(err).slice(0, 300);
}
