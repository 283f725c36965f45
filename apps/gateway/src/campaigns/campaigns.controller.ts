import { BadRequestException, Body, Controller, Get, HttpCode, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { RequireBotRole } from '@platform/auth';
import { CampaignAudienceDto, CampaignAudienceView, CampaignProgressView, CampaignView, CreateCampaignDto, MessagingLimitCheckView, StartCampaignDto } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { AudienceImportService } from './audience-import.service.js';
import { CampaignCallerGuard } from './campaign-caller.guard.js';
import { CampaignService } from './campaign.service.js';

/** Campaigns of a bot (docs/campaigns.md): the bot's API key, or an administrator token of a developer or above. */
@ApiTags('campaigns')
@ApiBearerAuth()
@Controller('v1/bots/:botId/campaigns')
@UseGuards(CampaignCallerGuard)
@RequireBotRole('developer')
export class CampaignsController {
  constructor(
    private readonly campaigns: CampaignService,
    private readonly audiences: AudienceImportService,
  ) {}

  @Post()
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Create a draft campaign: template, sender, column mapping, schedule, frequency cap' })
  create(@Param('botId') botId: string, @Body() body: CreateCampaignDto): Promise<CampaignView> {
    return this.campaigns.create(botId, body);
  }

  @Get()
  @ApiOperation({ summary: "The bot's campaigns, newest first (100)" })
  async list(@Param('botId') botId: string): Promise<{ campaigns: CampaignView[] }> {
    return { campaigns: await this.campaigns.list(botId) };
  }

  @Get(':campaignId')
  @ApiOperation({ summary: 'One campaign' })
  get(@Param('botId') botId: string, @Param('campaignId') id: string): Promise<CampaignView> {
    return this.campaigns.get(botId, id);
  }

  @Put(':campaignId/audience/csv')
  @ApiConsumes('text/csv')
  @ApiOperation({ summary: "A draft's audience from a CSV (header row; up to 1,000,000 rows, streamed); replaces any earlier one. Answers the counts, the first rows and the first errors" })
  async csv(@Param('botId') botId: string, @Param('campaignId') id: string, @Req() req: FastifyRequest): Promise<CampaignAudienceView> {
    const c = await this.campaigns.found(botId, id);
    if (!(req.body instanceof Readable)) throw new BadRequestException('send the audience as the request body with Content-Type: text/csv');
    return this.audiences.fromCsv(c, req.body);
  }

  @Put(':campaignId/audience')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "A draft's audience from a list of rows (up to 10,000) or a segment of the bot's WhatsApp users; replaces any earlier one" })
  async audience(@Param('botId') botId: string, @Param('campaignId') id: string, @Body() body: CampaignAudienceDto): Promise<CampaignAudienceView> {
    if ((body.rows === undefined) === (body.segment === undefined)) throw new BadRequestException('give exactly one of rows or segment');
    const c = await this.campaigns.found(botId, id);
    return body.rows ? this.audiences.fromList(c, body.rows) : this.audiences.fromSegment(c, body.segment!);
  }

  @Get(':campaignId/preview')
  @ApiOperation({ summary: "The first rows of the audience as they will be sent, the first rows with errors, and (a draft) the check against the sender's messaging limit" })
  preview(@Param('botId') botId: string, @Param('campaignId') id: string): Promise<Pick<CampaignAudienceView, 'preview' | 'errors'> & { messagingLimit?: MessagingLimitCheckView }> {
    return this.campaigns.preview(botId, id);
  }

  @Post(':campaignId/start')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Start a draft with a complete audience (scheduled until its start time); 409 while rows are invalid unless skipInvalid, and when the sender's messaging limit (Meta's tier) would be passed unless acknowledgeTierLimit",
  })
  start(@Param('botId') botId: string, @Param('campaignId') id: string, @Body() body: StartCampaignDto = {}): Promise<CampaignView & { messagingLimit?: MessagingLimitCheckView }> {
    return this.campaigns.start(botId, id, body?.skipInvalid ?? false, body?.acknowledgeTierLimit ?? false);
  }

  @Post(':campaignId/pause')
  @HttpCode(200)
  @ApiOperation({ summary: 'Pause: nothing more is sent (messages already with Meta go on) until resume' })
  pause(@Param('botId') botId: string, @Param('campaignId') id: string): Promise<CampaignView> {
    return this.campaigns.pause(botId, id);
  }

  @Post(':campaignId/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resume a paused campaign where it stopped' })
  resume(@Param('botId') botId: string, @Param('campaignId') id: string): Promise<CampaignView> {
    return this.campaigns.resume(botId, id);
  }

  @Post(':campaignId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel: recipients not yet sent to are not sent to; final' })
  cancel(@Param('botId') botId: string, @Param('campaignId') id: string): Promise<CampaignView> {
    return this.campaigns.cancel(botId, id);
  }

  @Get(':campaignId/progress')
  @ApiOperation({ summary: 'Live progress: recipients by state and the funnel queued, sent, delivered, read, failed, replied' })
  progress(@Param('botId') botId: string, @Param('campaignId') id: string): Promise<CampaignProgressView> {
    return this.campaigns.progress(botId, id);
  }
}
