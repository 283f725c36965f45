import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { PushPatterns, TestNotificationDto, TestNotificationResponse } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { PushRpcClient } from './push-rpc.client.js';

/** Push operations of bot administrators (access token), beside the API-key routes of the bot's back end. */
@ApiTags('push')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/push')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class PushAdminController {
  constructor(private readonly push: PushRpcClient) {}

  @Post('test')
  @HttpCode(200)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "Send one test message to one device token with the saved service account; answers with FCM's status and body unchanged" })
  test(@Body() body: TestNotificationDto, @Req() req: FastifyRequest): Promise<TestNotificationResponse> {
    return this.push.call<TestNotificationResponse>(PushPatterns.testNotification, req.adminUser!.botId, body);
  }
}
