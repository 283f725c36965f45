import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '@platform/auth';
import { SendBotEventDto, SendBotEventResponse } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { BotEventsService } from './bot-events.service.js';

/** The bot's app.sendEvent: an event for one app user, delivered over their SDK sessions' streams. */
@ApiTags('bot-events')
@Controller('v1/bots/:botId/events')
export class BotEventsController {
  constructor(private readonly events: BotEventsService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(ApiKeyGuard, JsonContentTypeGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Send an event to an app user (kept until their SDK acks it; delivered = live connections now)' })
  async send(@Param('botId') botId: string, @Body() body: SendBotEventDto): Promise<SendBotEventResponse> {
    const { eventId, delivered } = await this.events.send(botId, body);
    return { message: delivered > 0 ? 'Event sent' : 'Event stored until the user connects', status: 'success', eventId, delivered };
  }
}
