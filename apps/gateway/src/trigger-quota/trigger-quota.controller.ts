import { Body, Controller, Get, NotFoundException, Param, Put, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { TriggerGuardEnv } from '@platform/config';
import { SetTriggerQuotaDto, TriggerQuotaView, isUuid } from '@platform/contracts';
import { BotRepository } from '@platform/database';

/** Bot administrators read and change how many carousel triggers their bot may make per minute. */
@ApiTags('trigger-quota')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/trigger-quota')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class TriggerQuotaController {
  constructor(
    private readonly bots: BotRepository,
    private readonly env: TriggerGuardEnv,
  ) {}

  @Get()
  @ApiOperation({ summary: "The bot's carousel trigger quota (triggers per minute) and whether it is the platform default" })
  async get(@Param('botId') botId: string): Promise<TriggerQuotaView> {
    const quota = isUuid(botId) ? await this.bots.triggerQuota(botId) : undefined;
    if (!quota) throw new NotFoundException(`No bot ${botId}`);
    return this.view(botId, quota.perMinute);
  }

  @Put()
  @ApiOperation({ summary: "Set the bot's carousel trigger quota (null: the platform default); every gateway applies it within CATALOG_CACHE_MS" })
  async set(@Param('botId') botId: string, @Body() body: SetTriggerQuotaDto): Promise<TriggerQuotaView & { message: string; status: 'success' }> {
    if (!(isUuid(botId) && (await this.bots.setTriggerQuota(botId, body.perMinute)))) throw new NotFoundException(`No bot ${botId}`);
    return { message: 'Trigger quota set', status: 'success', ...this.view(botId, body.perMinute) };
  }

  private view(botId: string, perMinute: number | null): TriggerQuotaView {
    return { botId, perMinute: perMinute ?? this.env.TRIGGER_QUOTA_PER_MINUTE, isDefault: perMinute === null };
  }
}
