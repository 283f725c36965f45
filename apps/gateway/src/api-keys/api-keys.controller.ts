import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyService } from '@platform/accounts';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { ApiKeyView, CreateApiKeyDto, CreatedApiKeyResponse, isUuid } from '@platform/contracts';
import { ApiKeyRepository } from '@platform/database';
import type { ApiKey } from '@platform/database';

/** Bot administrators manage their bot's API keys. */
@ApiTags('api-keys')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/api-keys')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class ApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly keys: ApiKeyRepository,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key; the key is in this answer only' })
  async create(@Param('botId') botId: string, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const { key, record } = await this.apiKeys.create(botId, body.name.trim());
    return { ...view(record), key };
  }

  @Get()
  @ApiOperation({ summary: "List the bot's API keys (prefix, name, created, last used, revoked)" })
  async list(@Param('botId') botId: string): Promise<{ keys: ApiKeyView[] }> {
    return { keys: (await this.keys.listByBot(botId)).map(view) };
  }

  @Delete(':keyId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key; every gateway replica refuses it at once' })
  async revoke(@Param('botId') botId: string, @Param('keyId') keyId: string) {
    const row = isUuid(keyId) ? await this.apiKeys.revoke(botId, keyId) : null;
    if (!row) throw new NotFoundException(`No live API key ${keyId} for this bot`);
    return { message: 'API key revoked', status: 'success', key: view(row) };
  }
}

function view(k: ApiKey): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}
