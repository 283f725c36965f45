import { Injectable } from '@nestjs/common';
import type { BotRole } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

export interface AuditEntryData {
  botId: string | null;
  userId: string | null;
  actorEmail: string;
  clientId: string | null;
  action: string;
  method: string;
  path: string;
  target: string | null;
  statusCode: number;
  ip: string;
  userAgent: string | null;
}

export interface AuditFilter {
  /** Prefix of the action, e.g. "api-keys" or "whatsapp.senders.delete". */
  action?: string;
  /** Lower-cased e-mail of the actor, matched exactly. */
  actor?: string;
  since?: Date;
  until?: Date;
  before?: { createdAt: Date; id: string };
  limit: number;
}

/** The administrators' audit log: written once per administrator mutation, read newest first by bot. */
@Injectable()
export class AuditRepository {
  constructor(private readonly db: PrismaService) {}

  record(data: AuditEntryData) {
    return this.db.auditEntry.create({ data });
  }

  list(botId: string, f: AuditFilter) {
    const createdAt = { ...(f.since ? { gte: f.since } : {}), ...(f.until ? { lt: f.until } : {}) };
    return this.db.auditEntry.findMany({
      where: {
        botId,
        ...(f.action ? { action: { startsWith: f.action } } : {}),
        ...(f.actor ? { actorEmail: f.actor } : {}),
        ...(f.since || f.until ? { createdAt } : {}),
        ...(f.before ? { OR: [{ createdAt: { lt: f.before.createdAt } }, { createdAt: f.before.createdAt, id: { lt: f.before.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit,
    });
  }
}

/** Invitations by link: created hashed, accepted once (a conditional UPDATE, so two acceptances cannot both win). */
@Injectable()
export class InvitationRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; email: string; role: BotRole; tokenHash: string; invitedBy: string; expiresAt: Date }) {
    return this.db.invitation.create({ data });
  }

  listPending(botId: string, now: Date) {
    return this.db.invitation.findMany({ where: { botId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } }, orderBy: { createdAt: 'desc' } });
  }

  /** A live invitation by its token's hash; null when unknown, used, revoked or expired. */
  findLive(tokenHash: string, now: Date) {
    return this.db.invitation.findFirst({ where: { tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } } });
  }

  async revoke(botId: string, id: string, at: Date): Promise<boolean> {
    const { count } = await this.db.invitation.updateMany({ where: { id, botId, acceptedAt: null, revokedAt: null }, data: { revokedAt: at } });
    return count === 1;
  }

  /**
   * Accepts the invitation: creates the account and its role in one transaction, if the invitation is
   * still live and no account has the e-mail. Null when the invitation was taken meanwhile.
   */
  async accept(tokenHash: string, now: Date, passwordHash: string): Promise<{ userId: string; botId: string; email: string } | null> {
    return this.db.$transaction(async (tx) => {
      const inv = await tx.invitation.findFirst({ where: { tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } } });
      if (!inv) return null;
      const { count } = await tx.invitation.updateMany({ where: { id: inv.id, acceptedAt: null }, data: { acceptedAt: now } });
      if (count !== 1) return null;
      const user = await tx.user.create({ data: { email: inv.email, passwordHash } });
      await tx.botMembership.create({ data: { userId: user.id, botId: inv.botId, role: inv.role } });
      return { userId: user.id, botId: inv.botId, email: user.email };
    });
  }
}

/** An account's security: two-factor sign-in (the sealed TOTP secret, the last step used, hashed recovery codes) and its sessions. */
@Injectable()
export class AccountSecurityRepository {
  constructor(private readonly db: PrismaService) {}

  /** Starts (or restarts) an enrolment: the secret is stored but not in force until confirmed. Refused (false) once enabled. */
  async startEnrolment(userId: string, secretEncrypted: string): Promise<boolean> {
    const { count } = await this.db.user.updateMany({ where: { id: userId, totpEnabledAt: null }, data: { totpSecretEncrypted: secretEncrypted, totpLastStep: null } });
    return count === 1;
  }

  /** Turns two-factor sign-in on and replaces the recovery codes. */
  async enable(userId: string, at: Date, step: number, codeHashes: string[]): Promise<void> {
    await this.db.$transaction([
      this.db.user.update({ where: { id: userId }, data: { totpEnabledAt: at, totpLastStep: BigInt(step) } }),
      this.db.recoveryCode.deleteMany({ where: { userId } }),
      this.db.recoveryCode.createMany({ data: codeHashes.map((codeHash) => ({ userId, codeHash })) }),
    ]);
  }

  async disable(userId: string): Promise<void> {
    await this.db.$transaction([
      this.db.user.update({ where: { id: userId }, data: { totpEnabledAt: null, totpSecretEncrypted: null, totpLastStep: null } }),
      this.db.recoveryCode.deleteMany({ where: { userId } }),
    ]);
  }

  /** Records the step of an accepted code; false when that step (or a later one) was used already (a replayed code). */
  async useStep(userId: string, step: number): Promise<boolean> {
    const n = await this.db.$executeRaw`UPDATE users SET totp_last_step = ${BigInt(step)} WHERE id = ${userId}::uuid AND (totp_last_step IS NULL OR totp_last_step < ${BigInt(step)})`;
    return n === 1;
  }

  /** Burns a recovery code; false when the user has no unused code with that hash. */
  async useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
    const { count } = await this.db.recoveryCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: at } });
    return count === 1;
  }

  remainingRecoveryCodes(userId: string) {
    return this.db.recoveryCode.count({ where: { userId, usedAt: null } });
  }

  /** Ends every session and OAuth grant of the user but `keepGrantId` (after a password change). */
  async revokeOtherGrants(userId: string, keepGrantId: string, at: Date): Promise<void> {
    const others = { userId, id: { not: keepGrantId }, revokedAt: null };
    await this.db.$transaction([
      this.db.accessToken.updateMany({ where: { grant: others, revokedAt: null }, data: { revokedAt: at } }),
      this.db.refreshToken.updateMany({ where: { grant: others, revokedAt: null }, data: { revokedAt: at } }),
      this.db.authGrant.updateMany({ where: others, data: { revokedAt: at } }),
    ]);
  }
}
