import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { CarouselCatalogModule } from '@platform/database';
import { AudienceImportService } from './audience-import.service.js';
import { CampaignCallerGuard } from './campaign-caller.guard.js';
import { CampaignService } from './campaign.service.js';
import { CampaignsController } from './campaigns.controller.js';
import { TimeZones } from './time-zones.js';

@Module({
  imports: [AuthModule, CarouselCatalogModule],
  controllers: [CampaignsController],
  providers: [CampaignService, AudienceImportService, TimeZones, CampaignCallerGuard],
})
export class CampaignsModule {}
