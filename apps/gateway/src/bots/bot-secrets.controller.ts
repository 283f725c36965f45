import { Body, Controller, Delete, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '@platform/auth';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { SetBotSecretDto } from './bot-api.dto.js';
import { BotSecretsService } from './bot-secrets.service.js';

/** A hosted bot's secrets, read by its http nodes as `{{secrets.NAME}}`: set and listed by name, never shown. */
@ApiTags('hosted bots')
@ApiBearerAuth()
@Controller('v1/bots/:botId/secrets')
@UseGuards(ApiKeyGuard)
export class BotSecretsController {
  constructor(private readonly secrets: BotSecretsService) {}

  @Put(':name')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Set a secret (name ^[A-Z][A-Z0-9_]{0,63}$, value up to 4096 characters); stored encrypted, never shown again' })
  async set(@Param('botId') botId: string, @Param('name') name: string, @Body() body: SetBotSecretDto) {
    return { message: 'Secret saved', status: 'success', ...(await this.secrets.set(botId, name, body.value)) };
  }

  @Get()
  @ApiOperation({ summary: "The secrets' names and when each was set (never their values)" })
  async list(@Param('botId') botId: string) {
    return this.secrets.list(botId);
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Delete a secret' })
  async delete(@Param('botId') botId: string, @Param('name') name: string) {
    await this.secrets.delete(botId, name);
    return { message: 'Secret deleted', status: 'success' };
  }
}
