import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { UserService } from '@platform/accounts';
import { MemberView, isUuid } from '@platform/contracts';
import { BotRole, MembershipRepository } from '@platform/database';

@Injectable()
export class MembersService {
  constructor(
    private readonly memberships: MembershipRepository,
    private readonly users: UserService,
  ) {}

  async list(botId: string): Promise<MemberView[]> {
    return (await this.memberships.membersOf(botId)).map((m) => ({ userId: m.user.id, email: m.user.email, role: m.role, since: m.createdAt.toISOString() }));
  }

  async setRole(botId: string, email: string, role: BotRole): Promise<MemberView> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new NotFoundException(`No user with e-mail ${email.trim().toLowerCase()}; the operator creates accounts (npm run cli -- admin create)`);
    await this.keepAnAdmin(botId, user.id, role);
    const row = await this.users.setRole(user.id, botId, role);
    return { userId: user.id, email: user.email, role: row.role, since: row.createdAt.toISOString() };
  }

  async remove(botId: string, userId: string, callerId: string): Promise<void> {
    if (!isUuid(userId)) throw new NotFoundException(`No member ${userId} on this bot`);
    if (userId === callerId) throw new BadRequestException('You cannot remove yourself; ask another admin');
    await this.keepAnAdmin(botId, userId, null);
    if (!(await this.memberships.remove(botId, userId))) throw new NotFoundException(`No member ${userId} on this bot`);
  }

  /** A bot always keeps one admin: lowering or removing the last one is refused. */
  private async keepAnAdmin(botId: string, userId: string, newRole: BotRole | null): Promise<void> {
    if (newRole === 'admin') return;
    const current = await this.memberships.roleOf(botId, userId);
    if (current === 'admin' && (await this.memberships.countWithRole(botId, 'admin')) <= 1) {
      throw new ConflictException('This is the last admin of the bot; make someone else admin first');
    }
  }
}
