import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { CallbackLogQueryDto, RotateCallbackSecretDto } from '@platform/contracts';
import { CallbackLogService } from './callback-log.service.js';
import { CallbackSettingsService } from './callback-settings.service.js';

/**
 * Both kinds of a bot's callbacks at once: its endpoints and their health, the signing secret's
 * rotation, and the delivery log of webhook calls and postbacks with replays.
 */
@ApiTags('callbacks')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/callbacks')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class CallbacksController {
  constructor(
    private readonly settings: CallbackSettingsService,
    private readonly log: CallbackLogService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The webhook and postback endpoints (failing since, disabled), whether a secret is set, and a rotation in progress' })
  async get(@Param('botId') botId: string) {
    return { message: 'Callback settings', status: 'success', ...(await this.settings.view(botId)) };
  }

  @Post('secret/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new signing secret (in this answer only); the previous one also signs until previousSecretValidUntil' })
  async rotate(@Param('botId') botId: string, @Body() body: RotateCallbackSecretDto = {}) {
    const result = await this.settings.rotate(botId, body?.previousValidHours);
    return { message: 'Signing secret rotated; store it now, it is not shown again', status: 'success', ...result };
  }

  @Delete('secret/previous')
  @HttpCode(200)
  @ApiOperation({ summary: 'End a rotation now: calls are signed with the newest secret only' })
  async endRotation(@Param('botId') botId: string) {
    await this.settings.endRotation(botId);
    return { message: 'Previous signing secret retired', status: 'success' };
  }

  @Get('deliveries')
  @ApiOperation({ summary: 'The delivery log of webhook calls and postbacks, newest first (kind, page, pageSize up to 100)' })
  async page(@Param('botId') botId: string, @Query() query: CallbackLogQueryDto) {
    return { message: 'Callback deliveries', status: 'success', ...(await this.log.page(botId, query.page ?? 1, query.pageSize ?? 20, query.kind)) };
  }

  @Post('deliveries/:deliveryId/replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a logged webhook call or postback again (same webhook-id and body)' })
  async replay(@Param('botId') botId: string, @Param('deliveryId') deliveryId: string) {
    return { message: 'Callback queued again', status: 'success', delivery: await this.log.replay(botId, deliveryId) };
  }
}
