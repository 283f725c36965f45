import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { TemplateSyncModule } from '@platform/whatsapp';
import { CarouselModule } from '../carousel/carousel.module.js';
import { WhatsAppAdminController } from './whatsapp-admin.controller.js';
import { WhatsAppAdminService } from './whatsapp-admin.service.js';

@Module({ imports: [AuthModule, CarouselModule, TemplateSyncModule], controllers: [WhatsAppAdminController], providers: [WhatsAppAdminService] })
export class WhatsAppAdminModule {}
