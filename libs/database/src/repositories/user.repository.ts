import { Injectable } from '@nestjs/common';
import { BotRole } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

/** Users (bot administrators) and their roles on bots. */
@Injectable()
export class UserRepository {
  constructor(private readonly db: PrismaService) {}

  create(email: string, passwordHash: string) {
    return this.db.user.create({ data: { email, passwordHash } });
  }

  findByEmail(email: string) {
    return this.db.user.findUnique({ where: { email } });
  }

  findById(id: string) {
    return this.db.user.findUnique({ where: { id } });
  }

  setPasswordHash(id: string, passwordHash: string) {
    return this.db.user.update({ where: { id }, data: { passwordHash } });
  }

  setRole(userId: string, botId: string, role: BotRole) {
    return this.db.botMembership.upsert({
      where: { userId_botId: { userId, botId } },
      create: { userId, botId, role },
      update: { role },
    });
  }

  async roleOn(userId: string, botId: string): Promise<BotRole | null> {
    const m = await this.db.botMembership.findUnique({ where: { userId_botId: { userId, botId } }, select: { role: true } });
    return m?.role ?? null;
  }
}
