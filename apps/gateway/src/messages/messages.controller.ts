import { Controller, Get, NotFoundException, Param, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { MessageStatusResponse, isUuid } from '@platform/contracts';
import { MessageStatusService } from './message-status.service.js';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('v1/messages')
export class MessagesController {
  constructor(private readonly status: MessageStatusService) {}

  @Get(':msgId')
  @UseGuards(ApiKeyGuard)
  @ApiOperation({ summary: "A triggered message's delivery status (API key of the message's bot)" })
  async get(@Param('msgId') msgId: string, @Req() req: FastifyRequest): Promise<MessageStatusResponse> {
    const status = isUuid(msgId) ? await this.status.find(req.apiKey!.botId, msgId) : null;
    if (!status) throw new NotFoundException(`No message ${msgId} for this bot`);
    return status;
  }
}
