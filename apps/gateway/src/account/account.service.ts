import { Injectable, UnauthorizedException } from '@nestjs/common';
import { roleAllowedByScopes, roleRank } from '@platform/accounts';
import { AccessPrincipal } from '@platform/auth';
import { AccountResponse } from '@platform/contracts';
import { MembershipRepository } from '@platform/database';

@Injectable()
export class AccountService {
  constructor(private readonly memberships: MembershipRepository) {}

  /** The bots a token opens: an OAuth token only its client's bot, each role capped by the token's scope. */
  async describe(principal: AccessPrincipal): Promise<AccountResponse> {
    const [email, rows] = await Promise.all([this.memberships.emailOf(principal.userId), this.memberships.botsOfUser(principal.userId)]);
    if (!email) throw new UnauthorizedException('The access token is invalid, expired or revoked');
    const cap = roleAllowedByScopes(principal.scopes);
    const bots = rows
      .filter((m) => cap && (principal.botId === null || m.bot.id === principal.botId))
      .map((m) => ({ id: m.bot.id, name: m.bot.name, role: roleRank(m.role) <= roleRank(cap!) ? m.role : cap! }));
    return { userId: principal.userId, email, bots };
  }
}
