import { Body, Controller, Delete, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { ApiResponse, PushPatterns, RegisterDeviceDto, RegisterDeviceResponse, RegisterDeviceResult } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { PushRpcClient } from './push-rpc.client.js';

/** The device registry the SDK's DeviceRegistry talks to (bot API key). */
@ApiTags('push')
@ApiBearerAuth()
@Controller('v1/bots/:botId/devices')
@UseGuards(ApiKeyGuard)
export class DevicesController {
  constructor(private readonly push: PushRpcClient) {}

  @Post()
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Register an FCM token for a user (201 new, 200 when the token was known: it moves to this user)' })
  async register(@Body() body: RegisterDeviceDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<RegisterDeviceResponse> {
    const result = await this.push.call<RegisterDeviceResult>(PushPatterns.registerDevice, req.apiKey!.botId, body);
    reply.status(result.created ? 201 : 200);
    return { message: result.created ? 'Device registered' : 'Device updated', status: 'success', deviceId: result.deviceId };
  }

  @Delete(':token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink an FCM token (e.g. at logout); 404 when the bot has no such token' })
  async unregister(@Param('token') token: string, @Req() req: FastifyRequest): Promise<ApiResponse> {
    await this.push.call(PushPatterns.unregisterDevice, req.apiKey!.botId, { token });
    return { message: 'Device unlinked', status: 'success' };
  }
}
