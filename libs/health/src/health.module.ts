import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';

@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController, MetricsController] })
export class HealthModule {}
