import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ChatMessageView, UserChatMessageDto } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { ChatTokenGuard } from '../sdk-sessions/chat-token.guard.js';
import { ConversationService } from './conversation.service.js';

/** What the hosted chat page calls with the chat auth token: the transcript, and the user's messages. */
@ApiTags('sdk-sessions')
@ApiBearerAuth()
@Controller('v1/bots/:botId/sessions/:sessionId/messages')
@UseGuards(ChatTokenGuard)
export class WebChatController {
  constructor(private readonly conversations: ConversationService) {}

  @Get()
  @ApiOperation({ summary: "The session user's web-chat transcript (newest 200 messages, oldest first)" })
  async transcript(@Req() req: FastifyRequest): Promise<{ messages: ChatMessageView[] }> {
    const session = req.sdkSession!;
    return { messages: await this.conversations.webTranscript(session.botId, session.userId) };
  }

  @Post()
  @HttpCode(202)
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "A message the user typed or a quick reply they tapped; the bot's webhook gets message.received" })
  async send(@Req() req: FastifyRequest, @Body() body: UserChatMessageDto) {
    const session = req.sdkSession!;
    const { view, seq } = await this.conversations.receive({
      botId: session.botId,
      channel: 'web',
      userId: session.userId,
      type: body.payload !== undefined ? 'quick_reply' : 'text',
      content: body.payload !== undefined ? { text: body.text, payload: body.payload } : { text: body.text },
      // Unique across the platform: scoped to the bot and the user, so no one else's id can collide with it.
      providerMessageId: body.clientMessageId === undefined ? undefined : `web:${session.botId}:${session.userId}:${body.clientMessageId}`,
      at: new Date(),
    });
    // `seq`: where the page moves the user's bubble once it is recorded (the transcript's order).
    return { message: 'Message queued for the bot', status: 'success' as const, messageId: view.id, conversationId: view.conversationId, seq };
  }
}
