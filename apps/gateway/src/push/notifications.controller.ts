import { BadRequestException, Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import {
  NotificationStatusResponse,
  PushPatterns,
  SendNotificationDto,
  SendNotificationResponse,
  TestNotificationDto,
  TestNotificationResponse,
  fcmPayloadProblem,
  notificationTargetProblem,
} from '@platform/contracts';
import { IdempotencyKey } from '../http/idempotency-key.js';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { PushRpcClient } from './push-rpc.client.js';

/** Push notifications of a bot (bot API key). */
@ApiTags('push')
@ApiBearerAuth()
@Controller('v1/bots/:botId/notifications')
@UseGuards(ApiKeyGuard)
export class NotificationsController {
  constructor(private readonly push: PushRpcClient) {}

  @Post()
  @HttpCode(202)
  @UseGuards(JsonContentTypeGuard)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Same key within 24 h: the first answer again, no second notification' })
  @ApiOperation({ summary: 'Send to userIds or all devices; 202 once the fan-out job is durable' })
  send(@Body() body: SendNotificationDto, @Req() req: FastifyRequest, @IdempotencyKey() idempotencyKey?: string): Promise<SendNotificationResponse> {
    const botId = req.apiKey!.botId;
    const problem = notificationTargetProblem(body) ?? fcmPayloadProblem({ botId, ...body });
    if (problem) throw new BadRequestException(problem);
    return this.push.call<SendNotificationResponse>(PushPatterns.sendNotification, botId, body, idempotencyKey);
  }

  @Post('test')
  @HttpCode(200)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "Send one test message to one token now; answers with FCM's status and body unchanged" })
  test(@Body() body: TestNotificationDto, @Req() req: FastifyRequest): Promise<TestNotificationResponse> {
    return this.push.call<TestNotificationResponse>(PushPatterns.testNotification, req.apiKey!.botId, body);
  }

  @Get(':notificationId')
  @ApiOperation({ summary: 'Counts of a notification: total, sent, failed, invalidTokens, skipped, pending' })
  status(@Param('notificationId') notificationId: string, @Req() req: FastifyRequest): Promise<NotificationStatusResponse> {
    return this.push.call<NotificationStatusResponse>(PushPatterns.notificationStatus, req.apiKey!.botId, { notificationId });
  }
}
