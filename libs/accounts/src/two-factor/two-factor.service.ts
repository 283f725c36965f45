import { Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { SecretBox, randomToken, sha256Hex } from '@platform/crypto';
import { AccountSecurityRepository, User, UserRepository } from '@platform/database';
import { Clock } from '../clock.js';
import { TwoFactorError } from './two-factor.error.js';

const ISSUER = 'Bot platform';
const PERIOD_SECONDS = 30;
/** Codes of the step before and after the current one pass too: phones' clocks drift. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

export interface Enrolment {
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  /** otpauth://totp/… for a QR code or a tap on a phone. */
  otpauthUri: string;
}

export type SecondFactorCheck = 'ok' | 'required' | 'invalid';

/**
 * TOTP two-factor sign-in (RFC 6238, SHA-1, 6 digits, 30 s: what every authenticator app reads). The secret
 * is sealed with the platform's SecretBox like other credentials; a code is good once (the last step used is
 * kept); recovery codes are random, shown once and stored as SHA-256 hashes.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly repo: AccountSecurityRepository,
    private readonly users: UserRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** A new secret for the user, stored pending until a code from it is confirmed. */
  async startEnrolment(user: Pick<User, 'id' | 'email'>): Promise<Enrolment> {
    const secret = new Secret({ size: 20 });
    if (!(await this.repo.startEnrolment(user.id, this.box.encrypt(secret.base32)))) {
      throw new TwoFactorError('Two-factor sign-in is already on; turn it off first to enrol another authenticator');
    }
    return { secret: secret.base32, otpauthUri: totpOf(secret.base32, user.email).toString() };
  }

  /** Confirms the enrolment with a code from the authenticator: two-factor sign-in is on from now; the recovery codes are answered once. */
  async confirm(userId: string, code: string): Promise<string[]> {
    const user = await this.users.findById(userId);
    if (!user?.totpSecretEncrypted) throw new TwoFactorError('Start the enrolment first (POST /v1/me/two-factor)');
    if (user.totpEnabledAt) throw new TwoFactorError('Two-factor sign-in is already on');
    const step = this.stepOf(user, code);
    if (step === null) throw new TwoFactorError('The code is not the one your authenticator shows now; check the time on your phone and try again');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
    await this.repo.enable(userId, this.clock.now(), step, codes.map(hashRecoveryCode));
    return codes;
  }

  /** Whether the user may sign in with this code (TOTP or an unused recovery code); a TOTP code or recovery code is used up by passing. */
  async check(user: User, code: string | undefined): Promise<SecondFactorCheck> {
    if (!user.totpEnabledAt) return 'ok';
    if (!code?.trim()) return 'required';
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed.replace(/\s/g, ''))) {
      const step = this.stepOf(user, trimmed.replace(/\s/g, ''));
      return step !== null && (await this.repo.useStep(user.id, step)) ? 'ok' : 'invalid';
    }
    return (await this.repo.useRecoveryCode(user.id, hashRecoveryCode(trimmed), this.clock.now())) ? 'ok' : 'invalid';
  }

  async disable(userId: string): Promise<void> {
    await this.repo.disable(userId);
  }

  async status(userId: string): Promise<{ enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number }> {
    const user = await this.users.findById(userId);
    const enabled = !!user?.totpEnabledAt;
    return { enabled, enabledAt: user?.totpEnabledAt?.toISOString() ?? null, recoveryCodesLeft: enabled ? await this.repo.remainingRecoveryCodes(userId) : 0 };
  }

  /** The time step the code belongs to, or null when it is no code of the user's secret now. */
  private stepOf(user: User, code: string): number | null {
    if (!user.totpSecretEncrypted || !/^\d{6}$/.test(code)) return null;
    const now = this.clock.now().getTime();
    const delta = totpOf(this.box.decrypt(user.totpSecretEncrypted), user.email).validate({ token: code, timestamp: now, window: WINDOW });
    if (delta === null) return null;
    const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
    if (user.totpLastStep !== null && BigInt(step) <= user.totpLastStep) return null;
    return step;
  }
}

function totpOf(base32: string, email: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
}

/** 10 characters of base64url in two groups (about 60 bits): typed rarely, from paper. */
function recoveryCode(): string {
  const raw = randomToken(8)
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 10)
    .toLowerCase();
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** Hashed as typed, ignoring case, dashes and spaces. */
export function hashRecoveryCode(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
}
