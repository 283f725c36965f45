import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { CallbackLogPageQueryDto, SetPostbackDto } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { CallbackLogService } from './callback-log.service.js';
import { CallbackSettingsService } from './callback-settings.service.js';

/** Bot administrators set where message status changes are POSTed, read their delivery log, and replay entries. */
@ApiTags('postbacks')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class PostbacksController {
  constructor(
    private readonly settings: CallbackSettingsService,
    private readonly log: CallbackLogService,
  ) {}

  @Get('postback')
  @ApiOperation({ summary: "The bot's postback URL, whether a signing secret is set (never the secret) and whether it was disabled" })
  async get(@Param('botId') botId: string) {
    const view = await this.settings.view(botId);
    return { message: 'Postback settings', status: 'success', url: view.postback?.url ?? null, secretSet: view.secretSet, disabledAt: view.postback?.disabledAt ?? null };
  }

  @Put('postback')
  @HttpCode(200)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Set the postback URL (public addresses only; enables a disabled one); a signing secret generated now is in this answer only' })
  async set(@Param('botId') botId: string, @Body() body: SetPostbackDto) {
    const result = await this.settings.setUrl(botId, 'postback', body.url);
    const message = result.secret ? 'Postback URL set; store the signing secret now, it is not shown again' : 'Postback URL set; postbacks are signed with the webhook secret';
    return { message, status: 'success', ...result };
  }

  @Delete('postback')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove the postback URL; triggers may still name their own' })
  async remove(@Param('botId') botId: string) {
    await this.settings.clearUrl(botId, 'postback');
    return { message: 'Postback URL removed', status: 'success' };
  }

  @Get('postbacks')
  @ApiOperation({ summary: 'The delivery log of postbacks, newest first (page, pageSize up to 100); GET callbacks/deliveries lists webhook calls too' })
  async page(@Param('botId') botId: string, @Query() query: CallbackLogPageQueryDto) {
    return { message: 'Postback deliveries', status: 'success', ...(await this.log.page(botId, query.page ?? 1, query.pageSize ?? 20, 'postback')) };
  }

  @Post('postbacks/:postbackId/replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a logged postback again (same webhook-id and body)' })
  async replay(@Param('botId') botId: string, @Param('postbackId') postbackId: string) {
    return { message: 'Postback queued again', status: 'success', postback: await this.log.replay(botId, postbackId, 'postback') };
  }
}
