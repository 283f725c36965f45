import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard, RequireBotRole } from '@platform/auth';
import { CreateSenderDto, SenderView, TemplateSyncView, TemplateView, TriggerCarouselDto, TriggerCarouselResponse, UpdateSenderDto } from '@platform/contracts';
import { JsonContentTypeGuard } from '../http/json-content-type.guard.js';
import { CarouselTriggerService } from '../carousel/carousel-trigger.service.js';
import { WhatsAppAdminService } from './whatsapp-admin.service.js';

/** A bot's WhatsApp senders and carousel templates, for its members; a test send with an access token. */
@ApiTags('whatsapp')
@ApiHeader({ name: 'x-auth-token', required: false, description: 'Administrator access token (or Authorization: Bearer)' })
@Controller('v1/bots/:botId/whatsapp')
@UseGuards(AdminTokenGuard)
export class WhatsAppAdminController {
  constructor(
    private readonly whatsapp: WhatsAppAdminService,
    private readonly carousel: CarouselTriggerService,
  ) {}

  @Get('senders')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'Sender numbers of the bot: number, phone-number id (never the access token)' })
  async senders(@Param('botId') botId: string): Promise<{ senders: SenderView[] }> {
    return { senders: await this.whatsapp.senders(botId) };
  }

  @Post('senders')
  @RequireBotRole('admin')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Add a sender number; the Cloud API access token is stored encrypted and cannot be read back' })
  addSender(@Param('botId') botId: string, @Body() body: CreateSenderDto): Promise<SenderView> {
    return this.whatsapp.addSender(botId, body);
  }

  @Patch('senders/:senderId')
  @RequireBotRole('admin')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: "Change a sender's phone-number id or replace its access token (triggers use it within CATALOG_CACHE_MS)" })
  updateSender(@Param('botId') botId: string, @Param('senderId') senderId: string, @Body() body: UpdateSenderDto): Promise<SenderView> {
    return this.whatsapp.updateSender(botId, senderId, body);
  }

  @Delete('senders/:senderId')
  @HttpCode(200)
  @RequireBotRole('admin')
  @ApiOperation({ summary: 'Delete a sender number: no longer listed or used for sends; its messages stay in the log' })
  async deleteSender(@Param('botId') botId: string, @Param('senderId') senderId: string) {
    await this.whatsapp.deleteSender(botId, senderId);
    return { message: 'Sender deleted', status: 'success' };
  }

  @Get('templates')
  @RequireBotRole('viewer')
  @ApiOperation({ summary: 'Carousel templates of the bot: name, language, status, card count, card header format, body placeholders, card buttons' })
  async templates(@Param('botId') botId: string): Promise<{ templates: TemplateView[] }> {
    return { templates: await this.whatsapp.templates(botId) };
  }

  @Post('templates/sync')
  @HttpCode(200)
  @RequireBotRole('admin')
  @ApiOperation({ summary: "Read the bot's carousel templates from its senders' WhatsApp Business Accounts (Cloud API) and store them; idempotent" })
  syncTemplates(@Param('botId') botId: string): Promise<TemplateSyncView> {
    return this.whatsapp.syncTemplates(botId);
  }

  @Post('test-carousel')
  @HttpCode(200)
  @RequireBotRole('developer')
  @UseGuards(JsonContentTypeGuard)
  @ApiOperation({ summary: 'Send a carousel to one number with an access token instead of an API key (same body and checks as the trigger)' })
  async testCarousel(@Param('botId') botId: string, @Body() body: TriggerCarouselDto): Promise<TriggerCarouselResponse> {
    const { msgId } = await this.carousel.trigger(botId, body);
    return { message: 'Carousel template queued for delivery', status: 'success', msgId };
  }
}
