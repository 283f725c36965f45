import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { CarouselCatalogModule } from '@platform/database';
import { TemplateSyncModule } from '@platform/whatsapp';
import { AudienceImportService } from './audience-import.service.js';
import { CampaignCallerGuard } from './campaign-caller.guard.js';
import { CampaignService } from './campaign.service.js';
import { CampaignsController } from './campaigns.controller.js';
import { MessagingLimitCheck } from './messaging-limit-check.js';
import { TimeZones } from './time-zones.js';

@Module({
  imports: [AuthModule, CarouselCatalogModule, TemplateSyncModule],
  controllers: [CampaignsController],
  providers: [CampaignService, AudienceImportService, TimeZones, CampaignCallerGuard, MessagingLimitCheck],
})
export class CampaignsModule {}
