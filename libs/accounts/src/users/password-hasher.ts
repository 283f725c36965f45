import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): strong, and fast enough for a login endpoint. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
export const MAX_PASSWORD_LENGTH = 1024;

@Injectable()
export class PasswordHasher {
  private dummyHash?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    if (password.length > MAX_PASSWORD_LENGTH) return false;
    return argon2.verify(hash, password).catch(() => false);
  }

  /** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash('not a password of anyone');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
