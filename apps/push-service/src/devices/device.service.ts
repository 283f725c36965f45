import { Injectable } from '@nestjs/common';
import { DEVICE_PLATFORMS, PushRpcResult, RegisterDeviceMessage, RegisterDeviceResult, UnregisterDeviceMessage } from '@platform/contracts';
import { DeviceRepository } from '@platform/database';

/** The device registry: FCM tokens of a bot's app installs, each linked to one user. */
@Injectable()
export class DeviceService {
  constructor(private readonly devices: DeviceRepository) {}

  async register(botId: string, dto: RegisterDeviceMessage): Promise<PushRpcResult<RegisterDeviceResult>> {
    const token = typeof dto.token === 'string' ? dto.token.trim() : '';
    if (token === '') return { ok: false, status: 400, message: 'token must not be empty or blank' };
    if (typeof dto.userId !== 'string' || dto.userId.trim() === '') return { ok: false, status: 400, message: 'userId must not be empty or blank' };
    if (!DEVICE_PLATFORMS.includes(dto.platform)) return { ok: false, status: 400, message: `platform must be one of: ${DEVICE_PLATFORMS.join(', ')}` };
    const { id, created } = await this.devices.upsert(botId, dto.userId, token, dto.platform);
    return { ok: true, value: { deviceId: id, created } };
  }

  async unregister(botId: string, msg: UnregisterDeviceMessage): Promise<PushRpcResult<{ removed: true }>> {
    const token = msg.token.trim();
    if (token === '') return { ok: false, status: 400, message: 'token must not be empty or blank' };
    const removed = await this.devices.deleteByToken(botId, token, msg.userId);
    if (!removed) return { ok: false, status: 404, message: msg.userId === undefined ? 'No device with this token is registered for this bot' : 'No device with this token is registered for this user' };
    return { ok: true, value: { removed: true } };
  }
}
