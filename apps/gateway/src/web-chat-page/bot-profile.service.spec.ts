import { BadRequestException } from '@nestjs/common';
import type { BotProfileChange, BotProfileRow, ChatPageRepository } from '@platform/database';
import { AVATAR_MAX_BYTES, BotProfileService } from './bot-profile.service.js';

const BOT = '6f1c2d3e-4b5a-4c6d-8e7f-a1b2c3d4e5f6';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function setup() {
  let row: (BotProfileRow & { bytes?: Buffer }) | null = null;
  const changes: BotProfileChange[] = [];
  const repository = {
    profile: async () => row,
    setProfile: async (botId: string, change: BotProfileChange) => {
      changes.push(change);
      const next = { ...(row ?? { botId, displayName: null, avatarUrl: null, avatarType: null }), updatedAt: new Date(1700000000000) };
      if (change.displayName !== undefined) next.displayName = change.displayName;
      if (change.avatarUrl !== undefined) Object.assign(next, { avatarUrl: change.avatarUrl, avatarType: null });
      if (change.avatar !== undefined) Object.assign(next, { avatarUrl: null, avatarType: change.avatar?.type ?? null });
      row = next;
      return next;
    },
  } as unknown as ChatPageRepository;
  return { service: new BotProfileService(repository), changes };
}

describe('BotProfileService', () => {
  it('answers nulls for a bot without a profile, and the saved name and https avatar once set', async () => {
    const { service } = setup();
    expect(await service.get(BOT)).toEqual({ displayName: null, avatarUrl: null });
    expect(await service.set(BOT, { displayName: '  Ada the helper ', avatarUrl: 'https://cdn.example.com/ada.png' })).toEqual({
      displayName: 'Ada the helper',
      avatarUrl: 'https://cdn.example.com/ada.png',
    });
  });

  it('stores an uploaded picture and points the page at its address on this API', async () => {
    const { service, changes } = setup();
    const view = await service.set(BOT, { avatar: { contentType: 'image/png', data: PNG.toString('base64') } });
    expect(view.avatarUrl).toBe(`/v1/bots/${BOT}/profile/avatar?v=1700000000000`);
    expect(changes[0].avatar).toEqual({ type: 'image/png', bytes: PNG });
  });

  it('refuses bad fields, all named in one answer, and stores nothing', async () => {
    const { service, changes } = setup();
    const err = await service
      .set(BOT, { displayName: '   ', avatarUrl: 'javascript:alert(1)', avatar: { contentType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestException);
    const message = (err as BadRequestException).message;
    for (const part of ['displayName must not be blank', 'not both', 'avatarUrl must be an https:// address', 'PNG, JPEG, GIF or WebP']) expect(message).toContain(part);
    expect(changes).toEqual([]);
  });

  it('refuses a picture over the limit, bytes that are not base64, and a PNG that is really HTML', async () => {
    const { service } = setup();
    const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)]).toString('base64');
    await expect(service.set(BOT, { avatar: { contentType: 'image/png', data: big } })).rejects.toThrow('at most 256 KB');
    await expect(service.set(BOT, { avatar: { contentType: 'image/png', data: '%%%' } })).rejects.toThrow('base64');
    await expect(service.set(BOT, { avatar: { contentType: 'image/png', data: Buffer.from('<html>').toString('base64') } })).rejects.toThrow('bytes match');
  });

  it('clears fields set to null', async () => {
    const { service } = setup();
    await service.set(BOT, { displayName: 'Ada', avatarUrl: 'https://x.example/a.png' });
    expect(await service.set(BOT, { displayName: null, avatarUrl: null })).toEqual({ displayName: null, avatarUrl: null });
  });
});
