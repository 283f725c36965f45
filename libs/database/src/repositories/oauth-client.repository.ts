import { Injectable } from '@nestjs/common';
import { OAuthClientType } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class OAuthClientRepository {
  constructor(private readonly db: PrismaService) {}

  create(data: { botId: string; clientId: string; name: string; type: OAuthClientType; secretHash: string | null; redirectUris: string[]; grantTypes: string[]; scopes: string[] }) {
    return this.db.oAuthClient.create({ data });
  }

  findByClientId(clientId: string) {
    return this.db.oAuthClient.findUnique({ where: { clientId } });
  }

  listByBot(botId: string) {
    return this.db.oAuthClient.findMany({ where: { botId }, orderBy: { createdAt: 'asc' } });
  }

  /** Revokes a live client of the bot and every grant issued to it; null when there was none. */
  async revoke(botId: string, id: string, at: Date) {
    const [{ count }] = await this.db.$transaction([
      this.db.oAuthClient.updateMany({ where: { id, botId, revokedAt: null }, data: { revokedAt: at } }),
      this.db.authGrant.updateMany({ where: { clientId: id, client: { botId }, revokedAt: null }, data: { revokedAt: at } }),
      this.db.accessToken.updateMany({ where: { clientId: id, client: { botId }, revokedAt: null }, data: { revokedAt: at } }),
      this.db.refreshToken.updateMany({ where: { clientId: id, client: { botId }, revokedAt: null }, data: { revokedAt: at } }),
    ]);
    return count === 0 ? null : this.db.oAuthClient.findUnique({ where: { id } });
  }
}
