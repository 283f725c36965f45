import { Injectable } from '@nestjs/common';
import { CatalogEnv } from '@platform/config';
import type { ChannelSender, Template } from '../generated/client.js';
import { Channel } from '../generated/enums.js';
import { BotRepository } from '../repositories/bot.repository.js';
import { ChannelSenderRepository } from '../repositories/channel-sender.repository.js';
import { TemplateRepository } from '../repositories/template.repository.js';
import { ExpiringMap } from '@platform/common';

/**
 * A bot's templates, senders and trigger quota as the carousel hot paths read them: from memory for CATALOG_CACHE_MS
 * after a Postgres read (a changed template or sender is seen within that time; a new one at once,
 * since misses are not kept).
 */
@Injectable()
export class CarouselCatalog {
  private readonly templates: ExpiringMap<Template>;
  private readonly senders: ExpiringMap<ChannelSender>;
  private readonly quotas: ExpiringMap<{ perMinute: number | null }>;

  constructor(
    private readonly templateRepo: TemplateRepository,
    private readonly senderRepo: ChannelSenderRepository,
    private readonly botRepo: BotRepository,
    env: CatalogEnv,
  ) {
    this.templates = new ExpiringMap(env.CATALOG_CACHE_MS);
    this.senders = new ExpiringMap(env.CATALOG_CACHE_MS);
    this.quotas = new ExpiringMap(env.CATALOG_CACHE_MS);
  }

  /** The bot's own trigger quota per minute (null: the platform default; also for a bot that is gone). */
  async triggerQuotaOfBot(botId: string): Promise<number | null> {
    const quota = await this.quotas.getOrLoad(botId, async () => (await this.botRepo.triggerQuota(botId)) ?? null);
    return quota?.perMinute ?? null;
  }

  templateOfBot(botId: string, templateId: string): Promise<Template | null> {
    return this.templates.getOrLoad(`${botId}/${templateId}`, () => this.templateRepo.findForBot(botId, templateId));
  }

  senderByNumber(botId: string, channel: Channel, number: string): Promise<ChannelSender | null> {
    return this.senders.getOrLoad(`${botId}/${channel}/${number}`, () => this.senderRepo.findByNumber(botId, channel, number));
  }

  template(id: string): Promise<Template | null> {
    return this.templates.getOrLoad(id, () => this.templateRepo.findById(id));
  }

  sender(id: string): Promise<ChannelSender | null> {
    return this.senders.getOrLoad(id, () => this.senderRepo.findById(id));
  }
}
