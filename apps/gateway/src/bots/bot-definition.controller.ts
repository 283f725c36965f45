import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '@platform/auth';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { DeployBotVersionDto, DraftSavedDto, PublishBotDefinitionDto, VersionPublishedDto } from './bot-api.dto.js';
import { BotDefinitionService } from './bot-definition.service.js';

/** Who published, as the version list shows it. */
const publisher = (req: FastifyRequest) => (req.apiKey ? `api-key:${req.apiKey.keyId}` : null);

/** The published JSON Schema of bot definitions (no key: it is the same for every bot). */
@ApiTags('hosted bots')
@Controller('v1')
export class BotDefinitionSchemaController {
  constructor(private readonly definitions: BotDefinitionService) {}

  @Get('bot-definition.schema.json')
  @ApiOperation({ summary: 'The JSON Schema of a hosted bot definition' })
  schema() {
    return this.definitions.schema();
  }
}

/** A hosted bot's definition (API key of the bot): the draft, publishing, versions, rollback, unpublish. */
@ApiTags('hosted bots')
@ApiBearerAuth()
@Controller('v1/bots/:botId')
@UseGuards(ApiKeyGuard)
export class BotDefinitionController {
  constructor(private readonly definitions: BotDefinitionService) {}

  @Put('definition')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Save the draft definition (validated: 400 lists every error with its journey, node and field; warnings never refuse it)' })
  @ApiBody({ description: 'A bot definition (GET /v1/bot-definition.schema.json)', schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ type: DraftSavedDto })
  async saveDraft(@Param('botId') botId: string, @Body() body: unknown): Promise<DraftSavedDto> {
    return { message: 'Draft saved', status: 'success', ...(await this.definitions.saveDraft(botId, body)) };
  }

  @Get('definition')
  @ApiOperation({ summary: 'The draft definition and the published version (null: not hosted, the webhook answers)' })
  async get(@Param('botId') botId: string) {
    return this.definitions.get(botId);
  }

  @Post('definition/publish')
  @ApiOperation({ summary: 'Publish the draft as the next immutable version; new conversations start on it (warnings are answered, never refuse it)' })
  @ApiCreatedResponse({ type: VersionPublishedDto })
  async publish(@Param('botId') botId: string, @Req() req: FastifyRequest, @Body() body: PublishBotDefinitionDto = {}): Promise<VersionPublishedDto> {
    return { message: 'Draft published', status: 'success', ...(await this.definitions.publishDraft(botId, publisher(req), body?.note)) };
  }

  @Delete('definition/published')
  @ApiOperation({ summary: 'Unpublish: the bot is an outside (webhook) bot again; its versions stay' })
  async unpublish(@Param('botId') botId: string) {
    await this.definitions.unpublish(botId);
    return { message: 'Unpublished: the webhook answers this bot again', status: 'success', publishedVersion: null };
  }

  @Post('versions')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Save a definition as the draft and publish it in one call (what `bot deploy --file` does; warnings are answered, never refuse it)' })
  @ApiCreatedResponse({ type: VersionPublishedDto })
  async deploy(@Param('botId') botId: string, @Body() body: DeployBotVersionDto, @Req() req: FastifyRequest): Promise<VersionPublishedDto> {
    return { message: 'Version published', status: 'success', ...(await this.definitions.deploy(botId, body.definition, publisher(req), body.note)) };
  }

  @Get('versions')
  @ApiOperation({ summary: 'The published versions, newest first, and which one new conversations start on' })
  async versions(@Param('botId') botId: string) {
    return this.definitions.versions(botId);
  }

  @Get('versions/:version')
  @ApiOperation({ summary: 'One version with its definition' })
  async version(@Param('botId') botId: string, @Param('version') version: string) {
    return this.definitions.version(botId, version);
  }

  @Post('versions/:version/rollback')
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish an earlier version again; conversations in a journey keep their version until it ends' })
  async rollback(@Param('botId') botId: string, @Param('version') version: string) {
    return { message: 'Rolled back', status: 'success', ...(await this.definitions.rollback(botId, version)) };
  }
}
