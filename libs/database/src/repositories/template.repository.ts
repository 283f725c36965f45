import { Injectable } from '@nestjs/common';
import type { TemplateCardSpec } from '@platform/contracts';
import { CardHeaderFormat, Channel } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

/** A template as read from the provider's account. */
export interface SyncedTemplateData {
  providerTemplateId: string;
  wabaId: string;
  providerName: string;
  language: string;
  category: string;
  status: string;
  cardCount: number;
  cardHeaderFormat: CardHeaderFormat;
  bodyParameterCount: number;
  cards: TemplateCardSpec[];
}

@Injectable()
export class TemplateRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; channel: Channel; providerName: string; language: string; category: string; cardCount: number; cardHeaderFormat: CardHeaderFormat }) {
    return this.db.template.create({ data });
  }

  createSynced(botId: string, channel: Channel, data: SyncedTemplateData) {
    return this.db.template.create({ data: { botId, channel, ...data, cards: data.cards as object[] } });
  }

  /** Applies what the provider now says of a template (`data` may be partial: a status alone). */
  updateSynced(id: string, data: Partial<SyncedTemplateData>) {
    return this.db.template.update({ where: { id }, data: { ...data, cards: data.cards as object[] | undefined } });
  }

  findById(id: string) {
    return this.db.template.findUnique({ where: { id } });
  }

  findForBot(botId: string, id: string) {
    return this.db.template.findFirst({ where: { id, botId } });
  }

  listByBot(botId: string) {
    return this.db.template.findMany({ where: { botId }, orderBy: { createdAt: 'asc' } });
  }
}
