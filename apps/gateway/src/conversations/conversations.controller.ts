import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { SendConversationMessageDto, SendConversationMessageResponse } from '@platform/contracts';
import { IdempotencyKey } from '../http/idempotency-key.js';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { ConversationService } from './conversation.service.js';
import { toConversationView } from './conversation-view.js';

/** The bot's side of conversations (API key of the bot): reply, read transcripts, erase a user's data. */
@ApiTags('conversations')
@ApiBearerAuth()
@Controller('v1/bots/:botId/conversations')
@UseGuards(ApiKeyGuard)
export class ConversationsController {
  constructor(private readonly conversations: ConversationService) {}

  @Post(':id/messages')
  @HttpCode(202)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Send text (with quick replies), an image or a carousel to the user of a conversation' })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: "A repeat with the same key gets the first request's message (header Idempotent-Replayed: true) instead of a second one; 422 when its body differs",
  })
  async send(
    @Param('botId') botId: string,
    @Param('id') id: string,
    @Body() body: SendConversationMessageDto,
    @IdempotencyKey() key: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SendConversationMessageResponse> {
    const { view, replayed } = await this.conversations.reply(botId, id, body, key);
    if (replayed) void res.header('idempotent-replayed', 'true');
    return { message: view.status === 'sent' ? 'Message sent' : 'Message queued for delivery', status: 'success', messageId: view.id, deliveryStatus: view.status ?? 'queued' };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A conversation: channel, user, and when the user last wrote' })
  async get(@Param('botId') botId: string, @Param('id') id: string) {
    return toConversationView(await this.conversations.find(botId, id));
  }

  @Get(':id/messages')
  @ApiOperation({ summary: 'The messages of a conversation, oldest first, paged with `cursor` (the `next` of the previous page)' })
  @ApiQuery({ name: 'cursor', required: false, description: 'The `next` of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: 'Messages per page, 1-200 (default 50)' })
  async list(@Param('botId') botId: string, @Param('id') id: string, @Query('cursor') cursor?: unknown, @Query('limit') limit?: unknown) {
    return this.conversations.list(botId, id, cursor, limit);
  }

  @Delete()
  @ApiOperation({ summary: "Erase a user's conversations with the bot (data-protection request); channel optional" })
  @ApiQuery({ name: 'userId', required: true })
  @ApiQuery({ name: 'channel', required: false, enum: ['web', 'whatsapp'] })
  async erase(@Param('botId') botId: string, @Query('userId') userId?: string, @Query('channel') channel?: string) {
    if (typeof userId !== 'string' || userId.trim() === '') throw new BadRequestException('userId is required (the user id of the conversations)');
    if (userId.length > 128) throw new BadRequestException('userId must be at most 128 characters');
    if (channel !== undefined && channel !== 'web' && channel !== 'whatsapp') throw new BadRequestException('channel must be web or whatsapp');
    const deleted = await this.conversations.erase(botId, userId, channel);
    return { message: `${deleted} conversation(s) deleted`, status: 'success' as const, deleted };
  }
}
