import { Injectable } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import { PrismaService } from '../prisma.service.js';

/** What an http node names as `{{secrets.NAME}}`. */
export const BOT_SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
export const BOT_SECRET_VALUE_MAX = 4096;

export interface BotSecretSummary {
  name: string;
  updatedAt: Date;
}

/**
 * A hosted bot's secrets for its http nodes, sealed with SecretBox (ENCRYPTION_KEYS) like push configs
 * and webhook signing secrets; key rotation re-seals them (SEALED_COLUMNS). No read returns a value
 * except `reveal`, which only the bot runtime calls to run a turn.
 */
@Injectable()
export class BotSecretRepository {
  constructor(
    private readonly db: PrismaService,
    private readonly box: SecretBox,
  ) {}

  /** Creates or replaces a secret (the caller checked the name and the value's size). */
  async set(botId: string, name: string, value: string): Promise<void> {
    const data = { valueEncrypted: this.box.encrypt(value), keyId: this.box.activeKeyId };
    await this.db.botSecret.upsert({ where: { botId_name: { botId, name } }, create: { botId, name, ...data }, update: data });
  }

  /** Names and when each was set, by name. */
  list(botId: string): Promise<BotSecretSummary[]> {
    return this.db.botSecret.findMany({ where: { botId }, orderBy: { name: 'asc' }, select: { name: true, updatedAt: true } });
  }

  /** False when there was no such secret. */
  async delete(botId: string, name: string): Promise<boolean> {
    const { count } = await this.db.botSecret.deleteMany({ where: { botId, name } });
    return count === 1;
  }

  /** The bot's secrets in the clear, for the runtime's http nodes only: never logged, never answered. */
  async reveal(botId: string): Promise<Record<string, string>> {
    const rows = await this.db.botSecret.findMany({ where: { botId }, select: { name: true, valueEncrypted: true } });
    return Object.fromEntries(rows.map((r) => [r.name, this.box.decrypt(r.valueEncrypted)]));
  }
}
