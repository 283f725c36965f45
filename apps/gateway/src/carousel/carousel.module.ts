import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { PostgresLiveness } from '@platform/database';
import { CarouselTriggerController } from './carousel-trigger.controller.js';
import { CarouselTriggerService } from './carousel-trigger.service.js';
import { TriggerBatcher } from './trigger-batcher.js';

@Module({ imports: [AuthModule], controllers: [CarouselTriggerController], providers: [CarouselTriggerService, TriggerBatcher, PostgresLiveness] })
export class CarouselModule {}
