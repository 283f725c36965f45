import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { OverviewQueryDto, type OverviewResponse } from '@platform/contracts';
import { OverviewService } from './overview.service.js';

/** The console's home page: a bot's numbers over a range of days, for its members. */
@ApiTags('console')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/overview')
@UseGuards(AdminTokenGuard)
@RequireBotRole('viewer')
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @ApiOperation({
    summary:
      'Messages per day by status (carousels and conversation replies), conversations per channel, the delivery funnel per template and sender, and per hosted-bot journey its completion, drop-off and errors per node',
  })
  @ApiQuery({ name: 'from', required: false, description: 'First UTC day, YYYY-MM-DD (default: 29 days before to)' })
  @ApiQuery({ name: 'to', required: false, description: 'Last UTC day, YYYY-MM-DD, included (default: today); at most 366 days in all' })
  get(@Param('botId') botId: string, @Query() query: OverviewQueryDto): Promise<OverviewResponse> {
    return this.overview.overview(botId, query);
  }
}
