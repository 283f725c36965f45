import 'reflect-metadata';
import type { DevicePlatformName } from '@platform/contracts';
import type { DeviceRepository } from '@platform/database';
import { DeviceService } from './device.service.js';

interface Device {
  id: string;
  botId: string;
  userId: string;
  token: string;
  platform: string;
}

/** DeviceRepository in memory: one row per (bot, token), as the table's unique index has it. */
function setup() {
  const rows: Device[] = [];
  const repo = {
    upsert: async (botId: string, userId: string, token: string, platform: string) => {
      const row = rows.find((r) => r.botId === botId && r.token === token);
      if (row) {
        Object.assign(row, { userId, platform });
        return { id: row.id, created: false };
      }
      rows.push({ id: `device-${rows.length}`, botId, userId, token, platform });
      return { id: `device-${rows.length - 1}`, created: true };
    },
    deleteByToken: async (botId: string, token: string, userId?: string) => {
      const i = rows.findIndex((r) => r.botId === botId && r.token === token && (userId === undefined || r.userId === userId));
      if (i < 0) return false;
      rows.splice(i, 1);
      return true;
    },
  } as unknown as DeviceRepository;
  return { service: new DeviceService(repo), rows };
}

const device = (over: Record<string, unknown> = {}) => ({ userId: 'u1', token: 'fcm-token-1', platform: 'android' as DevicePlatformName, ...over });

describe('DeviceService', () => {
  it('registers a trimmed token once; registering it again moves it to the new user and platform', async () => {
    const { service, rows } = setup();
    await expect(service.register('bot-1', device({ token: '  fcm-token-1\n' }))).resolves.toEqual({ kind: 'done', value: { deviceId: 'device-0', created: true } });
    expect(rows[0]).toMatchObject({ token: 'fcm-token-1', userId: 'u1', platform: 'android' });
    await expect(service.register('bot-1', device({ userId: 'u2', platform: 'ios' }))).resolves.toEqual({ kind: 'done', value: { deviceId: 'device-0', created: false } });
    expect(rows).toEqual([expect.objectContaining({ userId: 'u2', platform: 'ios' })]);
    // The same token of another bot is another device.
    await expect(service.register('bot-2', device())).resolves.toMatchObject({ value: { created: true } });
  });

  it('answers invalid, naming the field, for a blank or missing token or user and an unknown platform', async () => {
    const { service, rows } = setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ token: '  ' }, 'token must not be empty or blank'],
      [{ token: undefined }, 'token must not be empty or blank'],
      [{ token: 42 }, 'token must not be empty or blank'],
      [{ userId: ' ' }, 'userId must not be empty or blank'],
      [{ userId: undefined }, 'userId must not be empty or blank'],
      [{ platform: 'windows' }, 'platform must be one of: android, ios, web'],
    ];
    for (const [over, message] of cases) await expect(service.register('bot-1', device(over) as never)).resolves.toEqual({ kind: 'invalid', message });
    expect(rows).toHaveLength(0);
  });

  it("unregisters a bot's token, or only the given user's, and says not_found otherwise", async () => {
    const { service, rows } = setup();
    await service.register('bot-1', device());
    await expect(service.unregister('bot-2', { token: 'fcm-token-1' })).resolves.toEqual({ kind: 'not_found', message: 'No device with this token is registered for this bot' });
    await expect(service.unregister('bot-1', { token: 'fcm-token-1', userId: 'u2' })).resolves.toEqual({ kind: 'not_found', message: 'No device with this token is registered for this user' });
    expect(rows).toHaveLength(1);
    await expect(service.unregister('bot-1', { token: ' fcm-token-1 ', userId: 'u1' })).resolves.toEqual({ kind: 'done', value: { removed: true } });
    expect(rows).toHaveLength(0);
    await expect(service.unregister('bot-1', { token: 'fcm-token-1' })).resolves.toMatchObject({ kind: 'not_found' });
    await expect(service.unregister('bot-1', { token: '\t' })).resolves.toEqual({ kind: 'invalid', message: 'token must not be empty or blank' });
  });

  it('answers invalid for a missing or non-string token, as register does, rather than throwing', async () => {
    const { service, rows } = setup();
    await service.register('bot-1', device());
    for (const token of [undefined, null, 42, ['fcm-token-1'], { token: 'fcm-token-1' }]) {
      await expect(service.unregister('bot-1', { token } as never)).resolves.toEqual({ kind: 'invalid', message: 'token must not be empty or blank' });
    }
    expect(rows).toHaveLength(1);
  });
});
