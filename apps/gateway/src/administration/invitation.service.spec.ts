import 'reflect-metadata';
import { ConflictException, NotFoundException } from '@nestjs/common';
import type { Clock, UserService } from '@platform/accounts';
import { UserInputError } from '@platform/accounts';
import type { HttpEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import type { BotRepository, Invitation, InvitationRepository } from '@platform/database';
import { INVITATION_TTL_MS, InvitationService } from './invitation.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const T0 = Date.parse('2026-12-16T10:00:00Z');

function setup(existing: string[] = []) {
  let now = T0;
  const rows: Invitation[] = [];
  const live = (hash: string) => rows.find((r) => r.tokenHash === hash && !r.acceptedAt && !r.revokedAt && r.expiresAt.getTime() > now) ?? null;
  const repo = {
    create: async (d: Omit<Invitation, 'id' | 'createdAt' | 'acceptedAt' | 'revokedAt'>) => {
      const row = { ...d, id: `00000000-0000-4000-8000-${String(rows.length).padStart(12, '0')}`, createdAt: new Date(now), acceptedAt: null, revokedAt: null } as Invitation;
      rows.push(row);
      return row;
    },
    findLive: async (hash: string) => live(hash),
    accept: async (hash: string) => {
      const inv = live(hash);
      if (!inv) return null;
      inv.acceptedAt = new Date(now);
      return { userId: 'u-new', botId: inv.botId, email: inv.email };
    },
  } as unknown as InvitationRepository;
  const users = {
    findByEmail: async (e: string) => (existing.includes(e.toLowerCase()) ? { id: 'u' } : null),
    hashPassword: async (p: string) => {
      if (p.length < 12) throw new UserInputError('password must be 12 to 1024 characters long');
      return 'hash';
    },
  } as unknown as UserService;
  const bots = { findById: async () => ({ name: 'Support bot' }) } as unknown as BotRepository;
  const service = new InvitationService(repo, bots, users, { now: () => new Date(now) } as Clock, { BASE_URL: 'https://bots.example.com' } as HttpEnv);
  return { service, rows, advance: (ms: number) => (now += ms) };
}

describe('InvitationService', () => {
  it('answers a link whose token is stored only hashed, expiring in 7 days, for a lower-cased address', async () => {
    const { service, rows } = setup();
    const inv = await service.create(BOT, 'admin-1', ' New.Person@Example.com ', 'developer');
    expect(inv.token).toMatch(/^biv_[A-Za-z0-9_-]{43}$/);
    expect(inv.url).toBe(`https://bots.example.com/console/#/invitation/${inv.token}`);
    expect(rows[0]).toMatchObject({ email: 'new.person@example.com', tokenHash: sha256Hex(inv.token), invitedBy: 'admin-1' });
    expect(rows[0]!.expiresAt.getTime() - T0).toBe(INVITATION_TTL_MS);
    await expect(service.lookup(inv.token)).resolves.toMatchObject({ email: 'new.person@example.com', bot: 'Support bot', role: 'developer' });
  });

  it('refuses an address with an account (409) and one that is no address (input error)', async () => {
    const { service } = setup(['ann@example.com']);
    await expect(service.create(BOT, 'a', 'Ann@example.com', 'viewer')).rejects.toBeInstanceOf(ConflictException);
    await expect(service.create(BOT, 'a', 'not an address', 'viewer')).rejects.toBeInstanceOf(UserInputError);
  });

  it('is accepted once; a used or expired link is 404; a short password is refused before the link is spent', async () => {
    const { service, advance } = setup();
    const inv = await service.create(BOT, 'a', 'x@example.com', 'viewer');
    await expect(service.accept(inv.token, 'short')).rejects.toBeInstanceOf(UserInputError);
    await expect(service.accept(inv.token, 'a long passphrase')).resolves.toEqual({ userId: 'u-new', botId: BOT, email: 'x@example.com' });
    await expect(service.accept(inv.token, 'a long passphrase')).rejects.toBeInstanceOf(NotFoundException);
    const later = await service.create(BOT, 'a', 'y@example.com', 'viewer');
    advance(INVITATION_TTL_MS + 1);
    await expect(service.lookup(later.token)).rejects.toBeInstanceOf(NotFoundException);
  });
});
