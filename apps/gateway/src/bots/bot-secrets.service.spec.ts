import 'reflect-metadata';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { BotSecretRepository } from '@platform/database';
import { BotSecretsService } from './bot-secrets.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';

function setup() {
  const stored = new Map<string, string>();
  const repo = {
    set: async (_b: string, name: string, value: string) => void stored.set(name, value),
    list: async () => [...stored.keys()].sort().map((name) => ({ name, updatedAt: new Date('2026-12-10T10:00:00Z') })),
    delete: async (_b: string, name: string) => stored.delete(name),
  } as unknown as BotSecretRepository;
  return { stored, service: new BotSecretsService(repo) };
}

describe('BotSecretsService', () => {
  it('stores secrets by name and lists names only', async () => {
    const { service, stored } = setup();
    await service.set(BOT, 'CRM_TOKEN', 's3cret');
    await service.set(BOT, 'A', 'x');
    expect(stored.get('CRM_TOKEN')).toBe('s3cret');
    const listed = await service.list(BOT);
    expect(listed).toEqual({
      secrets: [
        { name: 'A', updatedAt: '2026-12-10T10:00:00.000Z' },
        { name: 'CRM_TOKEN', updatedAt: '2026-12-10T10:00:00.000Z' },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain('s3cret');
  });

  it.each(['crm_token', '1TOKEN', '_TOKEN', 'CRM-TOKEN', '', `A${'B'.repeat(64)}`])('refuses the name %j with 400 naming the rule', async (name) => {
    const { service } = setup();
    await expect(service.set(BOT, name, 'v')).rejects.toThrow(/^name must be/);
    await expect(service.delete(BOT, name)).rejects.toBeInstanceOf(BadRequestException);
  });

  it('refuses a value over 4096 characters', async () => {
    const { service } = setup();
    await expect(service.set(BOT, 'BIG', 'x'.repeat(4097))).rejects.toThrow('value must be at most 4096 characters');
    await service.set(BOT, 'BIG', 'x'.repeat(4096));
  });

  it('deletes a secret; 404 for an unknown one', async () => {
    const { service } = setup();
    await service.set(BOT, 'A', 'x');
    await service.delete(BOT, 'A');
    await expect(service.delete(BOT, 'A')).rejects.toBeInstanceOf(NotFoundException);
  });
});
