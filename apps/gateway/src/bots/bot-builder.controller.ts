import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotAudited } from '../administration/audit-action.js';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { DefinitionCheckDto, DraftSavedDto, PublishBotDefinitionDto, VersionPublishedDto } from './bot-api.dto.js';
import { BotDefinitionService } from './bot-definition.service.js';
import { BotTryService } from './bot-try.service.js';

/**
 * The console's bot builder (docs/console.md#bot-builder): the same draft, publish, versions and rollback
 * as the API-key routes (BotDefinitionController), for members signed in to the console. The API-key
 * routes stay what scripts and `bot deploy` use; the console holds an access token, never an API key.
 */
@ApiTags('bot builder')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/builder')
@UseGuards(AdminTokenGuard)
export class BotBuilderController {
  constructor(
    private readonly definitions: BotDefinitionService,
    private readonly tries: BotTryService,
  ) {}

  @Get('definition')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'The draft and the published version number' })
  async get(@Param('botId') botId: string) {
    return this.definitions.get(botId);
  }

  @Put('definition')
  @UseGuards(JsonContentTypeGuard)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Save the draft (400 lists every error with its journey, node and field; warnings never refuse it)' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ type: DraftSavedDto })
  async save(@Param('botId') botId: string, @Body() body: unknown): Promise<DraftSavedDto> {
    return { message: 'Draft saved', status: 'success', ...(await this.definitions.saveDraft(botId, body)) };
  }

  @Post('validate')
  @HttpCode(200)
  @NotAudited()
  @UseGuards(JsonContentTypeGuard)
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'Check a definition without saving it: { ok, errors, warnings } (the builder shows each on its node)' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ type: DefinitionCheckDto })
  validate(@Body() body: unknown): DefinitionCheckDto {
    return this.definitions.check(body);
  }

  @Post('publish')
  @HttpCode(200)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Publish the draft as the next version (409 without a draft); published with its warnings, which it answers' })
  @ApiOkResponse({ type: VersionPublishedDto })
  async publish(@Param('botId') botId: string, @Req() req: FastifyRequest, @Body() body: PublishBotDefinitionDto = {}): Promise<VersionPublishedDto> {
    return { message: 'Draft published', status: 'success', ...(await this.definitions.publishDraft(botId, `user:${req.adminUser!.userId}`, body?.note)) };
  }

  @Get('versions')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'The published versions, newest first' })
  async versions(@Param('botId') botId: string) {
    return this.definitions.versions(botId);
  }

  @Get('versions/:version')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'One version with its definition' })
  async version(@Param('botId') botId: string, @Param('version') version: string) {
    return this.definitions.version(botId, version);
  }

  @Post('versions/:version/rollback')
  @HttpCode(200)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'New conversations start on this earlier version again' })
  async rollback(@Param('botId') botId: string, @Param('version') version: string) {
    return { message: 'Rolled back', status: 'success', ...(await this.definitions.rollback(botId, version)) };
  }

  @Post('try')
  @HttpCode(201)
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'Try the saved draft on the runtime: a test conversation (left out of the overview and the inbox); body { payload? }' })
  async startTry(@Param('botId') botId: string, @Req() req: FastifyRequest, @Body() body: { payload?: unknown } = {}) {
    return { message: 'Test conversation started', status: 'success', ...(await this.tries.start(botId, req.adminUser!.userId, body?.payload)) };
  }

  @Post('try/:id/messages')
  @HttpCode(202)
  @NotAudited()
  @RequireBotRole('developer')
  @ApiOperation({ summary: "The tester's message to the test conversation: { text, payload? }" })
  @ApiBody({ schema: { type: 'object', properties: { text: { type: 'string' }, payload: { type: 'string' } }, required: ['text'] } })
  async tryMessage(@Param('botId') botId: string, @Param('id') id: string, @Body() body: { text?: unknown; payload?: unknown }) {
    await this.tries.message(botId, id, body);
    return { message: 'Message accepted', status: 'success' };
  }

  @Post('try/:id/stream-ticket')
  @HttpCode(201)
  @NotAudited()
  @RequireBotRole('developer')
  @ApiOperation({ summary: "A single-use ticket (30 s) that opens the test's live trace stream: an EventSource cannot send the access token" })
  async tryStreamTicket(@Param('botId') botId: string, @Param('id') id: string, @Req() req: FastifyRequest) {
    return this.tries.streamTicket(botId, id, req.adminUser!.userId);
  }

  @Get('try/:id')
  @RequireBotRole('developer')
  @ApiOperation({ summary: 'The test conversation: transcript, node trace, and the state with its variables' })
  async tryView(@Param('botId') botId: string, @Param('id') id: string) {
    return this.tries.view(botId, id);
  }
}

/** The try-it trace stream, opened with a ticket (an EventSource sends no header), so outside AdminTokenGuard. */
@ApiTags('bot builder')
@Controller('v1/bots/:botId/builder/try/:id/stream')
export class BotTryStreamController {
  constructor(private readonly tries: BotTryService) {}

  @Get()
  @ApiQuery({ name: 'ticket', required: true, description: 'From POST .../builder/try/{id}/stream-ticket; used once' })
  @ApiOkResponse({
    content: { 'text/event-stream': { schema: { type: 'string' } } },
    description:
      'Server-Sent Events: `ready`, then `step` per node run of the test, oldest first and then live ({id, at, version, journey, node, kind, outcome, error, durationMs, sandboxMs, variables}), comment pings every 20 s, `end` before the server closes it',
  })
  @ApiOperation({ summary: "A builder test's node trace, live (text/event-stream); 401 for a missing, used or foreign ticket, 403 below developer" })
  stream(@Param('botId') botId: string, @Param('id') id: string, @Query('ticket') ticket: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.tries.stream(botId, id, ticket, req, reply);
  }
}
