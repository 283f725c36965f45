import { Controller, Get, NotFoundException, Param, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { MessageStatusResponse, isUuid } from '@platform/contracts';
import { MessageRepository } from '@platform/database';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('v1/messages')
export class MessagesController {
  constructor(private readonly messages: MessageRepository) {}

  @Get(':msgId')
  @UseGuards(ApiKeyGuard)
  @ApiOperation({ summary: "A triggered message's delivery status (API key of the message's bot)" })
  async get(@Param('msgId') msgId: string, @Req() req: FastifyRequest): Promise<MessageStatusResponse> {
    const m = isUuid(msgId) ? await this.messages.findForBot(req.apiKey!.botId, msgId) : null;
    if (!m) throw new NotFoundException(`No message ${msgId} for this bot`);
    return {
      msgId: m.id,
      botId: m.botId,
      channel: m.channel,
      recipient: m.recipient,
      status: m.status,
      attempts: m.attempts,
      providerMessageId: m.providerMessageId,
      lastError: m.lastErrorCode || m.lastErrorText ? { code: m.lastErrorCode, text: m.lastErrorText } : null,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
      sentAt: m.sentAt?.toISOString() ?? null,
    };
  }
}
