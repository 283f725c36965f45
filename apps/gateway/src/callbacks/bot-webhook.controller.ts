import { Body, Controller, Delete, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { SetWebhookDto, SetWebhookResponse, WebhookView } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { CallbackSettingsService } from './callback-settings.service.js';

/** Bot administrators set where session starts, app events and messages are delivered, and get the signing secret. */
@ApiTags('bot-webhook')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/webhook')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class BotWebhookController {
  constructor(private readonly settings: CallbackSettingsService) {}

  @Get()
  @ApiOperation({ summary: "The bot's webhook URL, whether a signing secret is set (never the secret) and whether it was disabled" })
  async get(@Param('botId') botId: string): Promise<WebhookView & { message: string; status: 'success' }> {
    const view = await this.settings.view(botId);
    return { message: 'Webhook settings', status: 'success', url: view.webhook?.url ?? null, secretSet: view.secretSet, disabledAt: view.webhook?.disabledAt ?? null };
  }

  @Put()
  @HttpCode(200)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Set the webhook URL (public addresses only; enables a disabled one); a new signing secret (first time or rotateSecret) is in this answer only' })
  async set(@Param('botId') botId: string, @Body() body: SetWebhookDto): Promise<SetWebhookResponse> {
    const result = await this.settings.setUrl(botId, 'webhook', body.url, body.rotateSecret === true);
    const message = result.secret ? 'Webhook set; store the signing secret now, it is not shown again' : 'Webhook set; the signing secret is unchanged';
    return { message, status: 'success', ...result };
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove the webhook (and the signing secret unless a postback URL still uses it); session starts, app events and messages are no longer delivered' })
  async remove(@Param('botId') botId: string) {
    await this.settings.clearUrl(botId, 'webhook');
    return { message: 'Webhook removed', status: 'success' };
  }
}
