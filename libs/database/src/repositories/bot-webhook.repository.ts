import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

export interface BotWebhookSettings {
  url: string | null;
  secretEncrypted: string | null;
}

/** A bot's webhook address and sealed signing secret (columns of bots). */
@Injectable()
export class BotWebhookRepository {
  constructor(private readonly db: PrismaService) {}

  /** Null when the bot does not exist. */
  async find(botId: string): Promise<BotWebhookSettings | null> {
    const bot = await this.db.bot.findUnique({ where: { id: botId }, select: { webhookUrl: true, webhookSecretEncrypted: true } });
    return bot && { url: bot.webhookUrl, secretEncrypted: bot.webhookSecretEncrypted };
  }

  /** Sets the URL, and the sealed secret when one is given (else the current secret stays). */
  async set(botId: string, url: string, secretEncrypted?: string): Promise<void> {
    await this.db.bot.update({ where: { id: botId }, data: { webhookUrl: url, ...(secretEncrypted ? { webhookSecretEncrypted: secretEncrypted } : {}) } });
  }

  /** Sets the sealed signing secret only (a bot that gets a postback URL before any webhook). */
  async setSecret(botId: string, secretEncrypted: string): Promise<void> {
    await this.db.bot.update({ where: { id: botId }, data: { webhookSecretEncrypted: secretEncrypted } });
  }

  async clear(botId: string): Promise<void> {
    await this.db.bot.update({ where: { id: botId }, data: { webhookUrl: null, webhookSecretEncrypted: null } });
  }
}
