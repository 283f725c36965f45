import 'reflect-metadata';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import type { UserService } from '@platform/accounts';
import type { BotRole, MembershipRepository } from '@platform/database';
import { MembersService } from './members.service.js';

const BOT = 'bot-1';
const T0 = Date.parse('2026-12-16T10:00:00Z');
const ANN = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const BOB = '1c7f4d63-a5b6-4e1f-8f88-8e9f6c1c3d22';
const CAT = '2d805e74-b6c7-4f20-9099-9fa07d2d4e33';

/** Memberships in memory; Ann is the bot's only admin, Bob a viewer, Cat has an account but no role. */
function setup() {
  const users = [
    { id: ANN, email: 'ann@example.com' },
    { id: BOB, email: 'bob@example.com' },
    { id: CAT, email: 'cat@example.com' },
  ];
  const members = new Map<string, { role: BotRole; createdAt: Date }>([
    [ANN, { role: 'admin', createdAt: new Date(T0) }],
    [BOB, { role: 'viewer', createdAt: new Date(T0 + 1000) }],
  ]);
  const repo = {
    membersOf: async () => [...members].map(([id, m]) => ({ user: users.find((u) => u.id === id)!, role: m.role, createdAt: m.createdAt })),
    roleOf: async (_b: string, userId: string) => members.get(userId)?.role ?? null,
    countWithRole: async (_b: string, role: BotRole) => [...members.values()].filter((m) => m.role === role).length,
    remove: async (_b: string, userId: string) => members.delete(userId),
  } as unknown as MembershipRepository;
  const userService = {
    findByEmail: async (email: string) => users.find((u) => u.email === email.trim().toLowerCase()) ?? null,
    setRole: async (userId: string, _b: string, role: BotRole) => {
      const m = members.get(userId) ?? { role, createdAt: new Date(T0 + 5000) };
      m.role = role;
      members.set(userId, m);
      return m;
    },
  } as unknown as UserService;
  return { service: new MembersService(repo, userService), members };
}

describe('MembersService', () => {
  it('lists members with their role and since when', async () => {
    const { service } = setup();
    await expect(service.list(BOT)).resolves.toEqual([
      { userId: ANN, email: 'ann@example.com', role: 'admin', since: new Date(T0).toISOString() },
      { userId: BOB, email: 'bob@example.com', role: 'viewer', since: new Date(T0 + 1000).toISOString() },
    ]);
  });

  it('gives an account a role, or changes it, by e-mail', async () => {
    const { service, members } = setup();
    await expect(service.setRole(BOT, ' Cat@Example.com', 'developer')).resolves.toEqual({ userId: CAT, email: 'cat@example.com', role: 'developer', since: new Date(T0 + 5000).toISOString() });
    await expect(service.setRole(BOT, 'bob@example.com', 'admin')).resolves.toMatchObject({ role: 'admin', since: new Date(T0 + 1000).toISOString() });
    // With two admins, Ann may step down.
    await expect(service.setRole(BOT, 'ann@example.com', 'viewer')).resolves.toMatchObject({ role: 'viewer' });
    expect(members.get(ANN)?.role).toBe('viewer');
  });

  it('answers 404 for an address without account, naming the operator command', async () => {
    const { service } = setup();
    await expect(service.setRole(BOT, ' Dan@Example.com ', 'viewer')).rejects.toThrow(
      new NotFoundException('No user with e-mail dan@example.com; the operator creates accounts (npm run cli -- admin create)'),
    );
  });

  it('refuses to lower or remove the last admin (409), and to remove oneself (400)', async () => {
    const { service, members } = setup();
    const last = new ConflictException('This is the last admin of the bot; make someone else admin first');
    await expect(service.setRole(BOT, 'ann@example.com', 'developer')).rejects.toThrow(last);
    await expect(service.setRole(BOT, 'ann@example.com', 'viewer')).rejects.toBeInstanceOf(ConflictException);
    await expect(service.remove(BOT, ANN, BOB)).rejects.toBeInstanceOf(ConflictException);
    await expect(service.remove(BOT, ANN, BOB)).rejects.toThrow(last);
    await expect(service.remove(BOT, ANN, ANN)).rejects.toThrow(new BadRequestException('You cannot remove yourself; ask another admin'));
    await expect(service.setRole(BOT, 'ann@example.com', 'admin')).resolves.toMatchObject({ role: 'admin' });
    expect(members.get(ANN)?.role).toBe('admin');
  });

  it('removes a member; an unknown or malformed id is 404', async () => {
    const { service, members } = setup();
    await service.remove(BOT, BOB, ANN);
    expect(members.has(BOB)).toBe(false);
    await expect(service.remove(BOT, BOB, ANN)).rejects.toThrow(new NotFoundException(`No member ${BOB} on this bot`));
    await expect(service.remove(BOT, 'bob', ANN)).rejects.toThrow(new NotFoundException('No member bob on this bot'));
    await expect(service.remove(BOT, CAT, ANN)).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.remove(BOT, ANN, ANN)).rejects.toBeInstanceOf(BadRequestException);
  });
});
