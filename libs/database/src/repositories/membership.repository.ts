import { Injectable } from '@nestjs/common';
import type { BotRole } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

/** Who has which role on which bot, read for the console (the account's bots, a bot's members). */
@Injectable()
export class MembershipRepository {
  constructor(private readonly db: PrismaService) {}

  /** The bots the user has a role on, oldest membership first. */
  botsOfUser(userId: string) {
    return this.db.botMembership.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: { role: true, bot: { select: { id: true, name: true } } },
    });
  }

  emailOf(userId: string): Promise<string | null> {
    return this.db.user.findUnique({ where: { id: userId }, select: { email: true } }).then((u) => u?.email ?? null);
  }

  membersOf(botId: string) {
    return this.db.botMembership.findMany({
      where: { botId },
      orderBy: { createdAt: 'asc' },
      select: { role: true, createdAt: true, user: { select: { id: true, email: true } } },
    });
  }

  countWithRole(botId: string, role: BotRole): Promise<number> {
    return this.db.botMembership.count({ where: { botId, role } });
  }

  roleOf(botId: string, userId: string): Promise<BotRole | null> {
    return this.db.botMembership.findUnique({ where: { userId_botId: { userId, botId } }, select: { role: true } }).then((m) => m?.role ?? null);
  }

  /** true when a membership was removed. */
  async remove(botId: string, userId: string): Promise<boolean> {
    const { count } = await this.db.botMembership.deleteMany({ where: { botId, userId } });
    return count > 0;
  }
}
