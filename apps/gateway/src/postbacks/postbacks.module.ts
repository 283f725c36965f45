import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { PostbackSettingsService } from './postback-settings.service.js';
import { PostbackUrlChecker } from './postback-url.checker.js';
import { PostbacksController } from './postbacks.controller.js';

@Module({
  imports: [AuthModule],
  controllers: [PostbacksController],
  providers: [PostbackSettingsService, PostbackUrlChecker],
  exports: [PostbackUrlChecker],
})
export class PostbacksModule {}
