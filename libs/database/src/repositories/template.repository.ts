import { Injectable } from '@nestjs/common';
import { CardHeaderFormat, Channel } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class TemplateRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: {
    botId: string;
    channel: Channel;
    providerName: string;
    language: string;
    category: string;
    cardCount: number;
    cardHeaderFormat: CardHeaderFormat;
  }) {
    return this.db.template.create({ data });
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
