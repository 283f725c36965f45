import { Injectable } from '@nestjs/common';
import { DEVICE_PLATFORMS, PushOutcome, RegisterDeviceMessage, RegisterDeviceResult, UnregisterDeviceMessage } from '@platform/contracts';
import { DeviceRepository } from '@platform/database';

/** The device registry: FCM tokens of a bot's app installs, each linked to one user. */
@Injectable()
export class DeviceService {
  constructor(private readonly devices: DeviceRepository) {}

  async register(botId: string, dto: RegisterDeviceMessage): Promise<PushOutcome<RegisterDeviceResult>> {
    const token = typeof dto.token === 'string' ? dto.token.trim() : '';
    if (token === '') return { kind: 'invalid', message: 'token must not be empty or blank' };
    if (typeof dto.userId !== 'string' || dto.userId.trim() === '') return { kind: 'invalid', message: 'userId must not be empty or blank' };
    if (!DEVICE_PLATFORMS.includes(dto.platform)) return { kind: 'invalid', message: `platform must be one of: ${DEVICE_PLATFORMS.join(', ')}` };
    const { id, created } = await this.devices.upsert(botId, dto.userId, token, dto.platform);
    return { kind: 'done', value: { deviceId: id, created } };
  }

  async unregister(botId: string, msg: UnregisterDeviceMessage): Promise<PushOutcome<{ removed: true }>> {
    const token = typeof msg.token === 'string' ? msg.token.trim() : '';
    if (token === '') return { kind: 'invalid', message: 'token must not be empty or blank' };
    const removed = await this.devices.deleteByToken(botId, token, msg.userId);
    if (!removed) return { kind: 'not_found', message: msg.userId === undefined ? 'No device with this token is registered for this bot' : 'No device with this token is registered for this user' };
    return { kind: 'done', value: { removed: true } };
  }
}
