import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '@platform/auth';
import { HandoffDto } from './bot-api.dto.js';
import { BotConversationService } from './bot-conversation.service.js';

/** A hosted bot in one conversation: the node trace, its state, and handing it to an agent and back. */
@ApiTags('hosted bots')
@ApiBearerAuth()
@Controller('v1/bots/:botId/conversations/:id')
@UseGuards(ApiKeyGuard)
export class BotConversationsController {
  constructor(private readonly conversations: BotConversationService) {}

  @Get('trace')
  @ApiOperation({ summary: 'The steps the bot ran in the conversation (node, outcome, error, durations), oldest first, paged with `cursor`' })
  @ApiQuery({ name: 'cursor', required: false, description: 'The `next` of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: 'Steps per page, 1-200 (default 50)' })
  async trace(@Param('botId') botId: string, @Param('id') id: string, @Query('cursor') cursor?: unknown, @Query('limit') limit?: unknown) {
    return this.conversations.steps(botId, id, cursor, limit);
  }

  @Get('bot-state')
  @ApiOperation({ summary: "Where the bot is in the conversation: status, version, journey, node, variables (404 before the bot's first turn)" })
  async state(@Param('botId') botId: string, @Param('id') id: string) {
    return this.conversations.state(botId, id);
  }

  @Post('handoff')
  @HttpCode(200)
  @ApiOperation({ summary: 'An agent takes over: the bot stays silent until handed back; the agent answers with the reply API' })
  async handoff(@Param('botId') botId: string, @Param('id') id: string, @Body() body: HandoffDto = {}) {
    await this.conversations.handoff(botId, id, body?.reason);
    return { message: 'Conversation handed to an agent', status: 'success', state: 'handoff' };
  }

  @Post('handback')
  @HttpCode(202)
  @ApiOperation({ summary: 'Hand the conversation back to the bot: it goes on after its handoff node (409 when not handed off)' })
  async handback(@Param('botId') botId: string, @Param('id') id: string) {
    await this.conversations.handback(botId, id);
    return { message: 'Handed back to the bot', status: 'success' };
  }
}
