import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { CarouselCatalogModule } from '@platform/database';
import { PostgresLiveness } from './postgres-liveness.js';
import { CallbacksModule } from '../callbacks/callbacks.module.js';
import { CarouselTriggerRoute } from './carousel-trigger.route.js';
import { CarouselTriggerService } from './carousel-trigger.service.js';
import { CorkedTurn } from './corked-turn.js';
import { LegacyKeyClaims } from './legacy-key-claims.js';
import { QuotaLeases } from './quota-lease.js';
import { TriggerBatcher } from './trigger-batcher.js';
import { TriggerGate } from './trigger-gate.js';
import { TriggerGuards } from './trigger-guards.js';
import { TriggerIdempotency } from './trigger-idempotency.js';

@Module({
  imports: [AuthModule, CarouselCatalogModule, CallbacksModule],
  providers: [CarouselTriggerRoute, CarouselTriggerService, CorkedTurn, TriggerBatcher, TriggerGate, QuotaLeases, TriggerIdempotency, TriggerGuards, PostgresLiveness, LegacyKeyClaims],
  exports: [CarouselTriggerService],
})
export class CarouselModule {}
