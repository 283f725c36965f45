import { BadRequestException, Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OAuthClientInputError, OAuthClientService } from '@platform/accounts';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { OAuthClientView, RegisterOAuthClientDto, RegisteredOAuthClientResponse, isUuid } from '@platform/contracts';
import type { OAuthClient } from '@platform/database';

/** Bot administrators register the OAuth clients that may ask for access to their bot. */
@ApiTags('oauth-clients')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/oauth-clients')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientService) {}

  @Post()
  @ApiOperation({ summary: 'Register an OAuth client; a confidential client’s secret is in this answer only' })
  async register(@Param('botId') botId: string, @Body() body: RegisterOAuthClientDto): Promise<RegisteredOAuthClientResponse> {
    try {
      const { client, clientSecret } = await this.clients.register(botId, {
        name: body.name,
        type: body.type,
        redirectUris: body.redirect_uris,
        grantTypes: body.grant_types,
        scopes: body.scopes,
      });
      return { ...view(client), ...(clientSecret ? { client_secret: clientSecret } : {}) };
    } catch (err) {
      if (err instanceof OAuthClientInputError) throw new BadRequestException(err.message);
      throw err;
    }
  }

  @Get()
  @ApiOperation({ summary: "List the bot's OAuth clients (never their secrets)" })
  async list(@Param('botId') botId: string): Promise<{ clients: OAuthClientView[] }> {
    return { clients: (await this.clients.list(botId)).map(view) };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an OAuth client and every grant and token issued to it' })
  async revoke(@Param('botId') botId: string, @Param('id') id: string) {
    const row = isUuid(id) ? await this.clients.revoke(botId, id) : null;
    if (!row) throw new NotFoundException(`No live OAuth client ${id} for this bot`);
    return { message: 'OAuth client revoked', status: 'success', client: view(row) };
  }
}

function view(c: OAuthClient): OAuthClientView {
  return {
    id: c.id,
    client_id: c.clientId,
    name: c.name,
    type: c.type,
    redirect_uris: c.redirectUris,
    grant_types: c.grantTypes,
    scopes: c.scopes,
    created_at: c.createdAt.toISOString(),
    revoked_at: c.revokedAt?.toISOString() ?? null,
  };
}
