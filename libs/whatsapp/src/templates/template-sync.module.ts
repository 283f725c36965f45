import { Module } from '@nestjs/common';
import { GraphTemplatesClient } from './graph-templates.client.js';
import { GraphPhoneNumberClient } from './graph-phone-number.client.js';
import { TemplateSyncService } from './template-sync.service.js';
import { MessagingLimitReader } from './messaging-limit-reader.js';

/** Template sync from the WhatsApp Cloud API (reads WhatsAppEnv; needs the database and crypto modules, both global). */
@Module({
  providers: [GraphTemplatesClient, TemplateSyncService, GraphPhoneNumberClient, MessagingLimitReader],
  exports: [TemplateSyncService, GraphPhoneNumberClient, MessagingLimitReader],
})
export class TemplateSyncModule {}
