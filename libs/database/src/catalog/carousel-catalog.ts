import { Injectable } from '@nestjs/common';
import { CatalogEnv } from '@platform/config';
import type { ChannelSender, Template } from '../generated/client.js';
import { Channel } from '../generated/enums.js';
import { ChannelSenderRepository } from '../repositories/channel-sender.repository.js';
import { TemplateRepository } from '../repositories/template.repository.js';
import { ExpiringMap } from '@platform/common';

/**
 * A bot's templates and senders as the carousel hot paths read them: from memory for CATALOG_CACHE_MS
 * after a Postgres read (a changed template or sender is seen within that time; a new one at once,
 * since misses are not kept).
 */
@Injectable()
export class CarouselCatalog {
  private readonly templates: ExpiringMap<Template>;
  private readonly senders: ExpiringMap<ChannelSender>;

  constructor(
    private readonly templateRepo: TemplateRepository,
    private readonly senderRepo: ChannelSenderRepository,
    env: CatalogEnv,
  ) {
    this.templates = new ExpiringMap(env.CATALOG_CACHE_MS);
    this.senders = new ExpiringMap(env.CATALOG_CACHE_MS);
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
