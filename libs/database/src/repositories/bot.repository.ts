import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class BotRepository {
  constructor(private readonly db: PrismaService) {}

  create(name: string) {
    return this.db.bot.create({ data: { name } });
  }

  findById(id: string) {
    return this.db.bot.findUnique({ where: { id } });
  }

  list() {
    return this.db.bot.findMany({ orderBy: { createdAt: 'asc' } });
  }
}
