import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import type { OnboardingView } from '@platform/contracts';
import { OnboardingService } from './onboarding.service.js';

/** The console's first-run checklist for a bot, for its members. */
@ApiTags('console')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/onboarding')
@UseGuards(AdminTokenGuard)
@RequireBotRole('viewer')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  @Get()
  @ApiOperation({
    summary:
      'Which first steps the bot has taken, each read from its data: a sender added, templates synced from Meta, an API key generated, a message sent, a web-chat conversation, a definition published',
  })
  get(@Param('botId') botId: string): Promise<OnboardingView> {
    return this.onboarding.checklist(botId);
  }
}
