import { BadRequestException, Body, Controller, Delete, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiResponse, PushPatterns, RegisterDeviceDto, RegisterDeviceMessage, RegisterDeviceResponse, RegisterDeviceResult, UnregisterDeviceMessage } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { DeviceCallerGuard } from './device-caller.guard.js';
import { PushRpcClient } from './push-rpc.client.js';

/** The device registry the SDK's DeviceRegistry talks to (chat auth token) and bot backends too (API key). */
@ApiTags('push')
@ApiBearerAuth()
@Controller('v1/bots/:botId/devices')
@UseGuards(DeviceCallerGuard)
export class DevicesController {
  constructor(private readonly push: PushRpcClient) {}

  @Post()
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Register an FCM token for a user (201 new, 200 when the token was known: it moves to this user)' })
  async register(@Param('botId') botId: string, @Body() body: RegisterDeviceDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<RegisterDeviceResponse> {
    const message: RegisterDeviceMessage = { userId: deviceUser(req, body.userId), token: body.token, platform: body.platform };
    const result = await this.push.call<RegisterDeviceResult>(PushPatterns.registerDevice, botId, message);
    reply.status(result.created ? 201 : 200);
    return { message: result.created ? 'Device registered' : 'Device updated', status: 'success', deviceId: result.deviceId, userId: message.userId };
  }

  @Delete(':token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink an FCM token (e.g. at logout); 404 when the bot (or, with a chat auth token, this user) has no such token' })
  async unregister(@Param('botId') botId: string, @Param('token') token: string, @Req() req: FastifyRequest): Promise<ApiResponse> {
    const caller = req.deviceCaller!;
    const message: UnregisterDeviceMessage = caller.kind === 'chatUser' ? { token, userId: caller.userId } : { token };
    await this.push.call(PushPatterns.unregisterDevice, botId, message);
    return { message: 'Device unlinked', status: 'success' };
  }
}

/** The device's user: named by an API-key caller, the caller itself for a chat auth token. */
function deviceUser(req: FastifyRequest, named: string | undefined): string {
  const caller = req.deviceCaller!;
  if (caller.kind === 'chatUser') {
    if (named !== undefined && named !== caller.userId) {
      throw new BadRequestException('userId must be omitted (or be the chat user id of the token) when a chat auth token authenticates the call');
    }
    return caller.userId;
  }
  if (named === undefined) throw new BadRequestException('userId is required');
  return named;
}
