import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/client.js';
import { AuthGrantKind } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

export type Db = PrismaService | Prisma.TransactionClient;

/** Storage of grants (login sessions and OAuth grants) and of the hashed access and refresh tokens issued from them. */
@Injectable()
export class TokenRepository {
  constructor(private readonly db: PrismaService) {}

  createGrant(data: { kind: AuthGrantKind; userId: string; botId: string | null; clientId: string | null; scope: string }, db: Db = this.db) {
    return db.authGrant.create({ data });
  }

  findGrant(id: string, db: Db = this.db) {
    return db.authGrant.findUnique({ where: { id } });
  }

  createAccessToken(data: { tokenHash: string; grantId: string; userId: string; clientId: string | null; scope: string; expiresAt: Date }, db: Db = this.db) {
    return db.accessToken.create({ data });
  }

  createRefreshToken(data: { tokenHash: string; grantId: string; clientId: string | null; scope: string; expiresAt: Date }, db: Db = this.db) {
    return db.refreshToken.create({ data });
  }

  findAccessByHash(tokenHash: string) {
    return this.db.accessToken.findUnique({ where: { tokenHash }, include: { grant: true } });
  }

  findRefreshByHash(tokenHash: string, db: Db = this.db) {
    return db.refreshToken.findUnique({ where: { tokenHash }, include: { grant: true } });
  }

  /** Marks a live refresh token as exchanged; false when it already was (or was revoked): a reuse. */
  async markRotated(id: string, at: Date, db: Db = this.db): Promise<boolean> {
    const { count } = await db.refreshToken.updateMany({ where: { id, rotatedAt: null, revokedAt: null }, data: { rotatedAt: at } });
    return count === 1;
  }

  /** Revokes a grant and every token issued from it. */
  async revokeGrant(grantId: string, at: Date): Promise<void> {
    await this.db.$transaction([
      this.db.authGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: at } }),
      this.db.accessToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: at } }),
      this.db.refreshToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: at } }),
    ]);
  }

  transaction<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) => fn(tx));
  }

  async revokeAccessToken(id: string, at: Date): Promise<void> {
    await this.db.accessToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  }
}
