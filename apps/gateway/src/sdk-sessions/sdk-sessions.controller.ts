import { Body, Controller, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SdkEnv } from '@platform/config';
import { RateLimiter } from '@platform/auth';
import { AppEventDto, AppEventResponse, StartSessionDto, StartSessionResponse } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { ChatTokenGuard } from './chat-token.guard.js';
import { SdkSessionService } from './sdk-session.service.js';
import { throttleAppCaller } from './sdk-throttle.js';
import { StreamUrls } from './stream-url.js';

/** What the mobile SDK calls: start a session (chat auth token in the body) and send events to the bot. */
@ApiTags('sdk-sessions')
@Controller('v1/bots/:botId/sessions')
export class SdkSessionsController {
  constructor(
    private readonly sessions: SdkSessionService,
    private readonly streamUrls: StreamUrls,
    private readonly limiter: RateLimiter,
    private readonly env: SdkEnv,
  ) {}

  @Post()
  @HttpCode(201)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Start an SDK session; the bot gets session.started with the payload as a JSON string' })
  async start(@Param('botId') botId: string, @Body() body: StartSessionDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<StartSessionResponse> {
    await throttleAppCaller(this.limiter, this.env, req, reply);
    const session = await this.sessions.start(botId, body);
    return { sessionId: session.id, streamUrl: this.streamUrls.forSession(botId, session.id) };
  }

  @Post(':sessionId/events')
  @HttpCode(202)
  @UseGuards(ChatTokenGuard, JsonContentTypeGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: "Send an app event to the bot's webhook (data arrives as a JSON string)" })
  async appEvent(@Req() req: FastifyRequest, @Body() body: AppEventDto): Promise<AppEventResponse> {
    const eventId = await this.sessions.sendAppEvent(req.sdkSession!, body);
    return { message: 'Event queued for the bot', status: 'success', eventId };
  }
}
