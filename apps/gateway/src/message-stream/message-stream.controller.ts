import { Controller, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { MessageStreamTicketResponse } from '@platform/contracts';
import { MessageStreamService } from './message-stream.service.js';
import { NotAudited } from '../administration/audit-action.js';

/** The message log, live: a ticket for the stream (with the access token), and the stream (with the ticket). */
@ApiTags('messages')
@Controller('v1/bots/:botId/messages')
export class MessageStreamController {
  constructor(private readonly streams: MessageStreamService) {}

  @Post('stream-ticket')
  @NotAudited()
  @UseGuards(AdminTokenGuard)
  @RequireBotRole('viewer')
  @ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
  @ApiOperation({ summary: 'A single-use ticket (30 s) that opens the live stream of the message log: an EventSource cannot send the access token' })
  ticket(@Param('botId') botId: string, @Req() req: FastifyRequest): Promise<MessageStreamTicketResponse> {
    return this.streams.ticket(req.adminUser!.userId, botId);
  }

  @Get('stream')
  @ApiQuery({ name: 'ticket', required: true, description: 'From POST .../messages/stream-ticket; used once' })
  @ApiOkResponse({
    content: { 'text/event-stream': { schema: { type: 'string' } } },
    description:
      'Server-Sent Events: `ready` once listening, then `status` per message of the bot queued or changing status ({msgId, status: queued|sent|delivered|read|failed, at, recipient (queued), error (failed)}), comment pings every 20 s, and `end` before the server closes it (after an access token lifetime, or at shutdown)',
  })
  @ApiOperation({ summary: 'Live events of the message log (text/event-stream); 401 when the ticket is missing, expired or used' })
  stream(@Param('botId') botId: string, @Query('ticket') ticket: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.streams.stream(botId, ticket, req, reply);
  }
}
