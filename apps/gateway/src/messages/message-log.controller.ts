import { Controller, Get, NotFoundException, Param, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { MessageLogQueryDto, MessageLogResponse, MessageStatusResponse, isUuid } from '@platform/contracts';
import { MessageLogService } from './message-log.service.js';
import { MessageStatusService } from './message-status.service.js';

/** The message log of a bot for its members (the console's Messages page). */
@ApiTags('messages')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/messages')
@UseGuards(AdminTokenGuard)
@RequireBotRole('viewer')
export class MessageLogController {
  constructor(
    private readonly log: MessageLogService,
    private readonly status: MessageStatusService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Messages of the bot, newest first; filter by status, recipient (prefix) and time; paged by cursor' })
  @ApiQuery({ name: 'status', required: false, enum: ['queued', 'processing', 'sent', 'delivered', 'read', 'failed'] })
  @ApiQuery({ name: 'recipient', required: false, description: 'Number or its first digits, optional +' })
  @ApiQuery({ name: 'since', required: false, description: 'ISO 8601; created at or after' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO 8601; created before' })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: '1-100, default 25' })
  list(@Param('botId') botId: string, @Query() query: MessageLogQueryDto): Promise<MessageLogResponse> {
    return this.log.list(botId, query);
  }

  @Get(':msgId')
  @ApiOperation({ summary: "One message: attempts, provider message id, last error code and text, timestamps (a queued message's job too)" })
  async get(@Param('botId') botId: string, @Param('msgId') msgId: string): Promise<MessageStatusResponse> {
    const found = isUuid(msgId) ? await this.status.find(botId, msgId) : null;
    if (!found) throw new NotFoundException(`No message ${msgId} for this bot`);
    return found;
  }
}
