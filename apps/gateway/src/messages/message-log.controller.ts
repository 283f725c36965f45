import { Controller, Get, NotFoundException, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
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
  @ApiQuery({ name: 'id', required: false, description: "A message id: the trigger's msgId or WhatsApp's wamid.…" })
  @ApiQuery({ name: 'since', required: false, description: 'ISO 8601; created at or after' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO 8601; created before' })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: '1-100, default 25' })
  list(@Param('botId') botId: string, @Query() query: MessageLogQueryDto): Promise<MessageLogResponse> {
    return this.log.list(botId, query);
  }

  @Get('export.csv')
  @ApiOperation({ summary: 'The messages the filters match (status, recipient, id, since, until) as CSV, streamed; times in UTC' })
  @ApiProduces('text/csv')
  exportCsv(@Param('botId') botId: string, @Query() query: MessageLogQueryDto, @Res() reply: FastifyReply) {
    const { cursor: _cursor, limit: _limit, ...filters } = query;
    const stream = this.log.exportCsv(botId, filters);
    const day = new Date().toISOString().slice(0, 10);
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="messages-${day}.csv"`).header('cache-control', 'no-store').send(stream);
  }

  @Get(':msgId/attempts')
  @ApiOperation({ summary: "The errors of a message's delivery attempts, oldest first (retry, throttled, failed), for its timeline" })
  async attempts(@Param('botId') botId: string, @Param('msgId') msgId: string) {
    const events = isUuid(msgId) ? await this.log.attempts(botId, msgId) : null;
    if (!events) throw new NotFoundException(`No message ${msgId} for this bot`);
    return { attempts: events };
  }

  @Get(':msgId')
  @ApiOperation({ summary: "One message: attempts, provider message id, last error code and text, timestamps (a queued message's job too)" })
  async get(@Param('botId') botId: string, @Param('msgId') msgId: string): Promise<MessageStatusResponse> {
    const found = isUuid(msgId) ? await this.status.find(botId, msgId) : null;
    if (!found) throw new NotFoundException(`No message ${msgId} for this bot`);
    return found;
  }
}
