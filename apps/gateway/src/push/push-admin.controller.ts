import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { ApiResponse, DeviceListQueryDto, DeviceListResponse, FcmQuotaView, PushPatterns, SetFcmQuotaDto, TestNotificationDto, TestNotificationResponse, isUuid } from '@platform/contracts';
import { DeviceDirectoryRepository } from '@platform/database';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { PushRpcClient } from './push-rpc.client.js';

/** Push operations of bot administrators (access token), beside the API-key routes of the bot's back end. */
@ApiTags('push')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/push')
@UseGuards(AdminTokenGuard)
@RequireBotRole('admin')
export class PushAdminController {
  constructor(
    private readonly push: PushRpcClient,
    private readonly devices: DeviceDirectoryRepository,
  ) {}

  @Post('test')
  @HttpCode(200)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "Send one test message to one device token with the saved service account; answers with FCM's status and body unchanged" })
  test(@Body() body: TestNotificationDto, @Req() req: FastifyRequest): Promise<TestNotificationResponse> {
    return this.push.call<TestNotificationResponse>(PushPatterns.testNotification, req.adminUser!.botId, body);
  }

  @Delete('config')
  @HttpCode(200)
  @ApiOperation({ summary: "Remove the bot's Firebase service account; push notifications of the bot fail until another is saved" })
  removeConfig(@Req() req: FastifyRequest): Promise<ApiResponse> {
    return this.push.call<ApiResponse>(PushPatterns.deleteConfig, req.adminUser!.botId, {});
  }

  @Get('quota')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: "The FCM quota of the bot's Firebase project (messages a minute, shared by every push service) and whether it is the platform default" })
  getQuota(@Req() req: FastifyRequest): Promise<FcmQuotaView> {
    return this.push.call<FcmQuotaView>(PushPatterns.getFcmQuota, req.adminUser!.botId, {});
  }

  @Put('quota')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "Set the FCM quota of the bot's Firebase project (null: the platform default PUSH_FCM_QUOTA_PER_MINUTE); batches that start after the answer use it" })
  setQuota(@Body() body: SetFcmQuotaDto, @Req() req: FastifyRequest): Promise<FcmQuotaView & ApiResponse> {
    return this.push.call<FcmQuotaView & ApiResponse>(PushPatterns.setFcmQuota, req.adminUser!.botId, { perMinute: body.perMinute });
  }

  @Get('devices')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'Registered devices of the bot: counts, and a page of devices in registration-id order (tokens shortened)' })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: '1-100, default 25' })
  async listDevices(@Param('botId') botId: string, @Query() query: DeviceListQueryDto): Promise<DeviceListResponse> {
    const limit = query.limit ? Number(query.limit) : 25;
    const [counts, rows] = await Promise.all([this.devices.counts(botId), this.devices.page(botId, query.cursor ?? null, limit + 1)]);
    const page = rows.slice(0, limit);
    return {
      total: counts.total,
      live: counts.total - counts.dead,
      dead: counts.dead,
      devices: page.map((d) => ({
        id: d.id,
        userId: d.userId,
        platform: d.platform,
        tokenPreview: d.token.length > 16 ? `${d.token.slice(0, 12)}…${d.token.slice(-4)}` : d.token,
        registeredAt: d.createdAt.toISOString(),
        updatedAt: d.updatedAt.toISOString(),
        deadAt: d.deadAt?.toISOString() ?? null,
        deadReason: d.deadReason,
      })),
      nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
    };
  }

  @Delete('devices/:deviceId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink one registered device: it gets no more notifications until the app registers again' })
  async unlinkDevice(@Param('botId') botId: string, @Param('deviceId') deviceId: string): Promise<ApiResponse> {
    if (!isUuid(deviceId) || !(await this.devices.deleteById(botId, deviceId))) throw new NotFoundException(`No device ${deviceId} for this bot`);
    return { message: 'Device unlinked', status: 'success' };
  }
}
