import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';
import type { Db } from './token.repository.js';

@Injectable()
export class AuthorizationCodeRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: {
    codeHash: string;
    clientId: string;
    userId: string;
    botId: string;
    redirectUri: string;
    scope: string;
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
    expiresAt: Date;
  }) {
    return this.db.authorizationCode.create({ data });
  }

  findByHash(codeHash: string, db: Db = this.db) {
    return db.authorizationCode.findUnique({ where: { codeHash } });
  }

  /** Marks the code used; false when it already was (a second presentation). */
  async consume(id: string, at: Date, db: Db = this.db): Promise<boolean> {
    const { count } = await db.authorizationCode.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
    return count === 1;
  }

  setGrant(id: string, grantId: string, db: Db = this.db) {
    return db.authorizationCode.update({ where: { id }, data: { grantId } });
  }
}
