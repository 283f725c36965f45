import { Body, Controller, Get, NotFoundException, Param, Put, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { isUuid } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { BotProfileDto } from './bot-profile.dto.js';
import { BotProfileService } from './bot-profile.service.js';
import { safeFileHeaders } from './safe-file-headers.js';

/** The bot's face on the chat page: set with its API key; read by the page (no key: name and picture are public). */
@ApiTags('chat page')
@Controller('v1/bots/:botId/profile')
export class BotProfileController {
  constructor(private readonly profiles: BotProfileService) {}

  @Get()
  @ApiOperation({ summary: "The bot's display name and avatar address, as the chat page shows them (public)" })
  async get(@Param('botId') botId: string) {
    if (!isUuid(botId)) throw new NotFoundException(`No bot ${botId}`);
    return this.profiles.get(botId);
  }

  @Put()
  @ApiBearerAuth()
  @UseGuards(ApiKeyGuard, JsonContentTypeGuard)
  @ApiOperation({ summary: 'Set the display name and the avatar (an https address, or a picture of at most 256 KB in base64); null clears a field' })
  async set(@Param('botId') botId: string, @Body() body: BotProfileDto) {
    return { message: 'Profile saved', status: 'success', ...(await this.profiles.set(botId, body)) };
  }

  @Get('avatar')
  @ApiOperation({ summary: 'The uploaded avatar picture (public)' })
  async avatar(@Param('botId') botId: string, @Res() reply: FastifyReply) {
    const picture = isUuid(botId) ? await this.profiles.avatar(botId) : null;
    if (!picture) throw new NotFoundException('This bot has no uploaded avatar');
    return reply.headers(safeFileHeaders(picture.type, 'avatar')).header('cache-control', 'public, max-age=86400').send(picture.bytes);
  }
}
