import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { ApiResponse, BotConfigResponse, PushPatterns, SaveBotConfigDto, SaveConfigMessage } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { PushRpcClient } from './push-rpc.client.js';

/** saveBotConfig: bot administrators store (and read back, without the key) the Firebase service account of their bot. */
@ApiTags('push')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@ApiQuery({ name: 'bot', required: true, description: 'Id of the bot' })
@Controller('api/data/vault')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class BotConfigController {
  constructor(
    private readonly push: PushRpcClient,
    private readonly box: SecretBox,
  ) {}

  @Post('saveBotConfig')
  @HttpCode(200)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "Save (replace) the bot's Firebase service account; checked, then stored encrypted" })
  async save(@Body() body: SaveBotConfigDto, @Req() req: FastifyRequest): Promise<ApiResponse> {
    // Sealed once, here: the private key never crosses Redis in clear, and the push service stores this sealed value as it is.
    const message: SaveConfigMessage = { sealedServiceAccount: this.box.encrypt(JSON.stringify(body.notification.firebaseConfig.serviceAccount)) };
    return this.push.call<ApiResponse>(PushPatterns.saveConfig, req.adminUser!.botId, message);
  }

  @Get('botConfig')
  @ApiOperation({ summary: 'Show the saved service account: project id, client e-mail, key id, saved at (nothing secret)' })
  view(@Req() req: FastifyRequest): Promise<BotConfigResponse> {
    return this.push.call<BotConfigResponse>(PushPatterns.getConfig, req.adminUser!.botId, {});
  }
}
