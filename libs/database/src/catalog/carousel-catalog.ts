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
 * since misses are not kept). The `held*` reads answer from memory alone, without a promise, so the
 * trigger's route can go from request to queue with a single `await` when everything is held.
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

  /** The bot's own quota (null: the platform default) if held in memory; undefined: triggerQuotaOfBot must load it. */
  heldTriggerQuotaOfBot(botId: string): number | null | undefined {
    return this.quotas.get(botId)?.perMinute;
  }

  /** templateOfBot's template if held in memory; undefined: templateOfBot must be asked. */
  heldTemplateOfBot(botId: string, templateId: string): Template | undefined {
    return this.templates.get(`${botId}/${templateId}`);
  }

  /** senderByNumber's sender if held in memory; undefined: senderByNumber must be asked. */
  heldSenderByNumber(botId: string, channel: Channel, number: string): ChannelSender | undefined {
    return this.senders.get(`${botId}/${channel}/${number}`);
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
