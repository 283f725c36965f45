import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { BotRole, User, UserRepository } from '@platform/database';
import { PasswordHasher } from './password-hasher.js';
import { UserInputError } from './user-input.error.js';
import { UserService, normaliseEmail } from './user.service.js';

const PASSWORD = 'correct horse battery';

/** UserRepository in memory, with the real argon2id hasher (its hashes are what the table would hold). */
function setup() {
  const users: User[] = [];
  const roles = new Map<string, BotRole>();
  const repo = {
    findByEmail: async (email: string) => users.find((u) => u.email === email) ?? null,
    findById: async (id: string) => users.find((u) => u.id === id) ?? null,
    create: async (email: string, passwordHash: string) => {
      const u = { id: `user-${users.length}`, email, passwordHash } as User;
      users.push(u);
      return u;
    },
    setPasswordHash: async (id: string, passwordHash: string) =>
      Object.assign(
        users.find((u) => u.id === id)!,
        { passwordHash },
      ),
    setRole: async (userId: string, botId: string, role: BotRole) => roles.set(`${userId}/${botId}`, role),
    roleOn: async (userId: string, botId: string) => roles.get(`${userId}/${botId}`) ?? null,
  } as unknown as UserRepository;
  const hasher = new PasswordHasher();
  return { service: new UserService(repo, hasher), users, hasher };
}

async function inputError(p: Promise<unknown> | (() => unknown)): Promise<string> {
  const err = await (typeof p === 'function' ? Promise.resolve().then(p) : p).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserInputError);
  return (err as Error).message;
}

describe('UserService', () => {
  it('creates a user under the trimmed, lower-cased address, storing only an argon2id hash of the password', async () => {
    const { service, users } = setup();
    const user = await service.create('  Ann@Example.COM ', PASSWORD);
    expect(user.email).toBe('ann@example.com');
    expect(users[0].passwordHash).toMatch(/^\$argon2id\$/);
    expect(users[0].passwordHash).not.toContain(PASSWORD);
    await expect(service.findByEmail('ANN@example.com')).resolves.toBe(user);
    await expect(service.findById(user.id)).resolves.toBe(user);
  });

  it('refuses a malformed address, a short or long password and a taken address, naming each', async () => {
    const { service, users } = setup();
    expect(await inputError(service.create('not an address', PASSWORD))).toBe('email must be an e-mail address');
    expect(await inputError(service.create('a b@example.com', PASSWORD))).toBe('email must be an e-mail address');
    expect(await inputError(service.create(`${'a'.repeat(310)}@example.com`, PASSWORD))).toBe('email must be an e-mail address');
    expect(await inputError(service.create('ann@example.com', 'x'.repeat(11)))).toBe('password must be 12 to 1024 characters long');
    expect(await inputError(service.create('ann@example.com', 'x'.repeat(1025)))).toBe('password must be 12 to 1024 characters long');
    await service.create('ann@example.com', 'x'.repeat(12));
    expect(await inputError(service.create('ANN@example.com', PASSWORD))).toBe('a user with e-mail ann@example.com already exists');
    expect(users).toHaveLength(1);
  });

  it('authenticates the right password only, and spends a verification on an unknown address too', async () => {
    const { service, hasher } = setup();
    const user = await service.create('ann@example.com', PASSWORD);
    const nothing = jest.spyOn(hasher, 'verifyNothing');
    await expect(service.authenticate(' ANN@example.com', PASSWORD)).resolves.toBe(user);
    await expect(service.authenticate('ann@example.com', `${PASSWORD}!`)).resolves.toBeNull();
    expect(nothing).not.toHaveBeenCalled();
    await expect(service.authenticate('bob@example.com', PASSWORD)).resolves.toBeNull();
    expect(nothing).toHaveBeenCalledWith(PASSWORD);
  });

  it('changes the password when the current one is right', async () => {
    const { service, users } = setup();
    const user = await service.create('ann@example.com', PASSWORD);
    const before = users[0].passwordHash;
    await expect(service.changePassword(user.id, 'wrong password!', 'a new passphrase')).resolves.toBe(false);
    await expect(service.changePassword('user-9', PASSWORD, 'a new passphrase')).resolves.toBe(false);
    expect(users[0].passwordHash).toBe(before);
    expect(await inputError(service.changePassword(user.id, PASSWORD, PASSWORD))).toBe('new_password must differ from the current password');
    expect(await inputError(service.changePassword(user.id, PASSWORD, 'short'))).toBe('password must be 12 to 1024 characters long');
    await expect(service.changePassword(user.id, PASSWORD, 'a new passphrase')).resolves.toBe(true);
    await expect(service.authenticate('ann@example.com', PASSWORD)).resolves.toBeNull();
    await expect(service.authenticate('ann@example.com', 'a new passphrase')).resolves.toBe(user);
  });

  it('hashes a new password only when it keeps the rules', async () => {
    const { service, hasher } = setup();
    expect(await inputError(() => service.hashPassword('short'))).toBe('password must be 12 to 1024 characters long');
    expect(() => service.checkNewPassword('x'.repeat(1024))).not.toThrow();
    const hash = await service.hashPassword(PASSWORD);
    await expect(hasher.verify(hash, PASSWORD)).resolves.toBe(true);
  });

  it("sets and reads a user's role on a bot", async () => {
    const { service } = setup();
    await service.setRole('user-0', 'bot-1', 'developer');
    await expect(service.roleOn('user-0', 'bot-1')).resolves.toBe('developer');
    await expect(service.roleOn('user-0', 'bot-2')).resolves.toBeNull();
  });

  it('normalises addresses by trimming and lower-casing', () => {
    expect(normaliseEmail('  Ann@Example.COM\n')).toBe('ann@example.com');
  });
});
