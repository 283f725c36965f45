import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { CarouselCatalogModule, PostgresLiveness } from '@platform/database';
import { CarouselTriggerRoute } from './carousel-trigger.route.js';
import { CarouselTriggerService } from './carousel-trigger.service.js';
import { TriggerBatcher } from './trigger-batcher.js';
import { TriggerGate } from './trigger-gate.js';
import { TriggerGuards } from './trigger-guards.js';
import { TriggerIdempotency } from './trigger-idempotency.js';

@Module({ imports: [AuthModule, CarouselCatalogModule], providers: [CarouselTriggerRoute, CarouselTriggerService, TriggerBatcher, TriggerGate, TriggerIdempotency, TriggerGuards, PostgresLiveness] })
export class CarouselModule {}
