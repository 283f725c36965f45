import { Injectable } from '@nestjs/common';
import type { BotRole, User } from '@platform/database';
import { UserRepository } from '@platform/database';
import { MAX_PASSWORD_LENGTH, PasswordHasher } from './password-hasher.js';
import { UserInputError } from './user-input.error.js';

export const MIN_PASSWORD_LENGTH = 12;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Accounts of bot administrators: creation, password check, roles on bots. */
@Injectable()
export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async create(email: string, password: string): Promise<User> {
    const normalised = normaliseEmail(email);
    if (!EMAIL_PATTERN.test(normalised) || normalised.length > 320) throw new UserInputError('email must be an e-mail address');
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
      throw new UserInputError(`password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`);
    }
    if (await this.users.findByEmail(normalised)) throw new UserInputError(`a user with e-mail ${normalised} already exists`);
    return this.users.create(normalised, await this.hasher.hash(password));
  }

  findByEmail(email: string) {
    return this.users.findByEmail(normaliseEmail(email));
  }

  /** The user whose password this is, or null; takes the same time whether or not the e-mail exists. */
  async authenticate(email: string, password: string): Promise<User | null> {
    const user = await this.users.findByEmail(normaliseEmail(email));
    if (!user) return this.hasher.verifyNothing(password).then(() => null);
    return (await this.hasher.verify(user.passwordHash, password)) ? user : null;
  }

  /** Checks a password against the rules of create(); throws UserInputError naming the problem. */
  checkNewPassword(password: string): void {
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
      throw new UserInputError(`password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`);
    }
  }

  hashPassword(password: string): Promise<string> {
    this.checkNewPassword(password);
    return this.hasher.hash(password);
  }

  /** Replaces the password when the current one is right; false when it is not. */
  async changePassword(userId: string, current: string, next: string): Promise<boolean> {
    this.checkNewPassword(next);
    const user = await this.users.findById(userId);
    if (!user || !(await this.hasher.verify(user.passwordHash, current))) return false;
    if (current === next) throw new UserInputError('new_password must differ from the current password');
    await this.users.setPasswordHash(userId, await this.hasher.hash(next));
    return true;
  }

  findById(id: string) {
    return this.users.findById(id);
  }

  setRole(userId: string, botId: string, role: BotRole) {
    return this.users.setRole(userId, botId, role);
  }

  roleOn(userId: string, botId: string): Promise<BotRole | null> {
    return this.users.roleOn(userId, botId);
  }
}
