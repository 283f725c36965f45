import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class PushConfigRepository {
  constructor(private readonly db: PrismaService) {}

  /** Creates or replaces the bot's service account; `version` grows on each save (cached access tokens key on it). */
  save(botId: string, data: { projectId: string; credentialsEncrypted: string; keyId: string }) {
    return this.db.pushConfig.upsert({
      where: { botId },
      create: { botId, ...data },
      update: { ...data, version: { increment: 1 } },
    });
  }

  findByBot(botId: string) {
    return this.db.pushConfig.findUnique({ where: { botId } });
  }

  /** Up to `limit` configs sealed under a key other than `keyId`, oldest first. */
  listNotUnderKey(keyId: string, limit: number) {
    return this.db.pushConfig.findMany({ where: { keyId: { not: keyId } }, orderBy: { id: 'asc' }, take: limit });
  }

  /** Swaps the sealed document only if nobody saved a new one meanwhile (false then); saved-at is kept. */
  async reseal(id: string, previous: string, next: { credentialsEncrypted: string; keyId: string }): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE "push_configs" SET "credentials_encrypted" = ${next.credentialsEncrypted}, "key_id" = ${next.keyId}
      WHERE "id" = ${id}::uuid AND "credentials_encrypted" = ${previous}`;
    return count === 1;
  }
}
