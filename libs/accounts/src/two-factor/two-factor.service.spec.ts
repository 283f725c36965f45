import 'reflect-metadata';
import { Secret, TOTP } from 'otpauth';
import { SecretBox } from '@platform/crypto';
import type { AccountSecurityRepository, User, UserRepository } from '@platform/database';
import { Clock } from '../clock.js';
import { TwoFactorError } from './two-factor.error.js';
import { RECOVERY_CODE_COUNT, TwoFactorService, hashRecoveryCode } from './two-factor.service.js';

const KEY = Buffer.alloc(32, 3).toString('base64');
const T0 = Date.parse('2026-12-16T10:00:00Z');

/** One user in memory, with the repository's conditional updates as the SQL does them. */
function setup() {
  const user: User = { id: 'u1', email: 'ann@example.com', passwordHash: 'x', totpSecretEncrypted: null, totpEnabledAt: null, totpLastStep: null, createdAt: new Date(T0) } as User;
  const codes = new Map<string, boolean>();
  const repo = {
    startEnrolment: async (_id: string, sealed: string) => (user.totpEnabledAt ? false : ((user.totpSecretEncrypted = sealed), true)),
    enable: async (_id: string, at: Date, step: number, hashes: string[]) => {
      user.totpEnabledAt = at;
      user.totpLastStep = BigInt(step);
      codes.clear();
      for (const h of hashes) codes.set(h, false);
    },
    disable: async () => {
      user.totpEnabledAt = null;
      user.totpSecretEncrypted = null;
    },
    useStep: async (_id: string, step: number) => (user.totpLastStep !== null && user.totpLastStep >= BigInt(step) ? false : ((user.totpLastStep = BigInt(step)), true)),
    useRecoveryCode: async (_id: string, hash: string) => (codes.get(hash) === false ? (codes.set(hash, true), true) : false),
    remainingRecoveryCodes: async () => [...codes.values()].filter((used) => !used).length,
  } as unknown as AccountSecurityRepository;
  const users = { findById: async () => user } as unknown as UserRepository;
  const clock = { now: () => new Date(now) } as Clock;
  let now = T0;
  const box = new SecretBox(`k:${KEY}`);
  const service = new TwoFactorService(repo, users, box, clock);
  const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });
  return { service, user, box, codeAt, advance: (ms: number) => (now += ms), now: () => now };
}

describe('TwoFactorService', () => {
  it('seals the secret, and is not in force until a code from it is confirmed', async () => {
    const { service, user, box } = setup();
    const { secret, otpauthUri } = await service.startEnrolment(user);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Bot%20platform:ann%40example\.com\?.*secret=/);
    expect(user.totpSecretEncrypted).not.toContain(secret);
    expect(box.decrypt(user.totpSecretEncrypted!)).toBe(secret);
    await expect(service.check(user, undefined)).resolves.toBe('ok');
  });

  it('refuses a wrong confirmation code, then turns on with the right one and gives 10 recovery codes', async () => {
    const { service, user, codeAt, now } = setup();
    const { secret } = await service.startEnrolment(user);
    const right = codeAt(secret, now());
    await expect(service.confirm('u1', right === '000000' ? '111111' : '000000')).rejects.toBeInstanceOf(TwoFactorError);
    const codes = await service.confirm('u1', right);
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    expect(user.totpEnabledAt).not.toBeNull();
    await expect(service.startEnrolment(user)).rejects.toBeInstanceOf(TwoFactorError);
  });

  it('at sign-in: asks for a code, takes the current one once, refuses a replay and an old one', async () => {
    const { service, user, codeAt, advance, now } = setup();
    const { secret } = await service.startEnrolment(user);
    await service.confirm('u1', codeAt(secret, now()));
    await expect(service.check(user, undefined)).resolves.toBe('required');
    await expect(service.check(user, codeAt(secret, now()))).resolves.toBe('invalid'); // the step the confirmation used
    advance(30_000);
    const next = codeAt(secret, now());
    await expect(service.check(user, next)).resolves.toBe('ok');
    await expect(service.check(user, next)).resolves.toBe('invalid');
    advance(5 * 60_000);
    await expect(service.check(user, codeAt(secret, now() - 3 * 60_000))).resolves.toBe('invalid');
    await expect(service.check(user, 'abc')).resolves.toBe('invalid');
  });

  it('a recovery code works once, typed with any case and dashes, and is stored hashed', async () => {
    const { service, user, codeAt, now } = setup();
    const { secret } = await service.startEnrolment(user);
    const [first] = await service.confirm('u1', codeAt(secret, now()));
    expect(hashRecoveryCode(first!)).toMatch(/^[0-9a-f]{64}$/);
    await expect(service.check(user, first!.toUpperCase().replace('-', ' '))).resolves.toBe('ok');
    await expect(service.check(user, first!)).resolves.toBe('invalid');
    await expect(service.status('u1')).resolves.toMatchObject({ enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT - 1 });
  });
});
