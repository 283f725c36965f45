import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { CannedResponseDto, InboxAssignDto, InboxHandbackDto, InboxNoteDto, InboxReadDto, SendConversationMessageDto } from '@platform/contracts';
import { NotAudited } from '../administration/audit-action.js';
import { IdempotencyKey } from '../http/idempotency-key.js';
import { safeFileHeaders } from '../web-chat-page/safe-file-headers.js';
import { InboxService } from './inbox.service.js';

/**
 * The console's inbox (docs/console.md#inbox): members of the bot read its conversations (viewer) and
 * take them over from the bot, answer, note, assign and hand back (developer).
 */
@ApiTags('inbox')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/inbox')
@UseGuards(AdminTokenGuard)
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @Get('conversations')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'Conversations, most recently active first, with unread counts and the count of each filter' })
  @ApiQuery({ name: 'filter', required: false, description: 'all (default), waiting (for an agent), mine (assigned to me), bot (a journey waits), closed' })
  @ApiQuery({ name: 'channel', required: false, description: 'web or whatsapp' })
  @ApiQuery({ name: 'cursor', required: false, description: 'The `next` of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: '1-100 (default 25)' })
  async list(@Param('botId') botId: string, @Req() req: FastifyRequest, @Query() query: Record<string, unknown>) {
    return this.inbox.list(botId, req.adminUser!.userId, query);
  }

  @Get('conversations/:id')
  @RequireBotRole('viewer')
  @ApiOperation({
    summary:
      "One conversation: transcript (newest 200 messages; olderMessages says whether older ones exist), the bot's trace and state, internal notes, the bot's journeys; unread is the signed-in member's",
  })
  async view(@Param('botId') botId: string, @Param('id') id: string, @Req() req: FastifyRequest) {
    return this.inbox.view(botId, id, req.adminUser!.userId);
  }

  @Get('conversations/:id/messages')
  @RequireBotRole('viewer')
  @ApiOperation({
    summary: 'The transcript further back: the messages just before `before`, oldest first, and olderMessages (whether there are older ones still)',
    description:
      "The view shows the newest 200 messages and says with olderMessages whether older ones exist; pass its first message's id as `before`, then each answer's first. 400 for a malformed `before`, one that is not a message of this conversation, or a limit out of range; 404 for an unknown conversation.",
  })
  @ApiQuery({ name: 'before', required: true, description: 'Id of a message of the conversation: the answer holds the messages before it' })
  @ApiQuery({ name: 'limit', required: false, description: '1-200 (default 50)' })
  async olderMessages(@Param('botId') botId: string, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.inbox.olderMessages(botId, id, query);
  }

  @Get('conversations/:id/messages/:messageId/file')
  @RequireBotRole('viewer')
  @ApiOperation({
    summary: 'The file a web-chat user sent with the message, with its checked type and a Content-Disposition naming it',
    description:
      "Only for members of the bot (the console downloads it with the access token); never cached. 404 for a message of another conversation or bot, a message without a file, and WhatsApp media, which Meta keeps (the platform stores only Meta's media id).",
  })
  async file(@Param('botId') botId: string, @Param('id') id: string, @Param('messageId') messageId: string, @Res() res: FastifyReply) {
    const file = await this.inbox.file(botId, id, messageId);
    // A member's access can be taken away: the browser keeps no copy to read later.
    return res.headers(safeFileHeaders(file.contentType, file.fileName)).header('cache-control', 'private, no-store').send(file.bytes);
  }

  @Post('conversations/:id/read')
  @HttpCode(200)
  @NotAudited()
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'The signed-in member has read the conversation up to { messageId } (the newest shown), or up to its newest message; other members keep their unread counts' })
  async read(@Param('botId') botId: string, @Param('id') id: string, @Req() req: FastifyRequest, @Body() body: InboxReadDto = {}) {
    await this.inbox.markRead(botId, id, req.adminUser!.userId, body?.messageId);
    return { message: 'Marked as read', status: 'success' };
  }

  @Post('conversations/:id/take-over')
  @HttpCode(200)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Take the conversation over: the bot pauses (handoff) and it is assigned to you' })
  async takeOver(@Param('botId') botId: string, @Param('id') id: string, @Req() req: FastifyRequest) {
    await this.inbox.takeOver(botId, id, await this.inbox.member(req.adminUser!.userId));
    return { message: 'You have the conversation; the bot is paused', status: 'success' };
  }

  @Post('conversations/:id/messages')
  @HttpCode(202)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Reply as the agent (text with optional quick replies, or an image); 409 unless taken over; WhatsApp only within 24 h of the user' })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'The console sends one per reply and again when it retries after no answer: a repeat gets the first message (Idempotent-Replayed: true)',
  })
  async reply(
    @Param('botId') botId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Body() body: SendConversationMessageDto,
    @IdempotencyKey() key: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const { view: message, replayed } = await this.inbox.reply(botId, id, req.adminUser!.userId, body, key);
    if (replayed) void res.header('idempotent-replayed', 'true');
    return { message: 'Reply accepted', status: 'success', data: message };
  }

  @Post('conversations/:id/handback')
  @HttpCode(202)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Hand back to the bot (after its handoff node) or, with journeySlug, to that journey; 409 when not with an agent' })
  async handBack(@Param('botId') botId: string, @Param('id') id: string, @Req() req: FastifyRequest, @Body() body: InboxHandbackDto = {}) {
    await this.inbox.handBack(botId, id, await this.inbox.member(req.adminUser!.userId), body?.journeySlug);
    return { message: body?.journeySlug ? `Handed to the journey ${body.journeySlug}` : 'Handed back to the bot', status: 'success' };
  }

  @Put('conversations/:id/assignee')
  @HttpCode(200)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Assign the conversation to a member of the bot ({ userId }), or to nobody ({ userId: null })' })
  async assign(@Param('botId') botId: string, @Param('id') id: string, @Body() body: InboxAssignDto) {
    const assignee = await this.inbox.assign(botId, id, body.userId);
    return { message: assignee ? `Assigned to ${assignee.email}` : 'Assigned to nobody', status: 'success', assignee };
  }

  @Post('conversations/:id/notes')
  @HttpCode(201)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'An internal note on the conversation: never sent to the user, not in the reply API transcript' })
  async note(@Param('botId') botId: string, @Param('id') id: string, @Req() req: FastifyRequest, @Body() body: InboxNoteDto) {
    const note = await this.inbox.addNote(botId, id, await this.inbox.member(req.adminUser!.userId), body.text);
    return { message: 'Note added', status: 'success', note };
  }

  @Get('canned-responses')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: "The bot's canned responses, by title" })
  async canned(@Param('botId') botId: string) {
    return { cannedResponses: await this.inbox.cannedResponses(botId) };
  }

  @Post('canned-responses')
  @HttpCode(201)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Add a canned response { title, text, quickReplies? }; 409 when the title is taken' })
  async createCanned(@Param('botId') botId: string, @Body() body: CannedResponseDto) {
    return { message: 'Canned response added', status: 'success', cannedResponse: await this.inbox.createCanned(botId, body) };
  }

  @Put('canned-responses/:id')
  @HttpCode(200)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Change a canned response' })
  async updateCanned(@Param('botId') botId: string, @Param('id') id: string, @Body() body: CannedResponseDto) {
    return { message: 'Canned response saved', status: 'success', cannedResponse: await this.inbox.updateCanned(botId, id, body) };
  }

  @Delete('canned-responses/:id')
  @HttpCode(200)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Delete a canned response' })
  async deleteCanned(@Param('botId') botId: string, @Param('id') id: string) {
    await this.inbox.deleteCanned(botId, id);
    return { message: 'Canned response deleted', status: 'success' };
  }
}
