import { DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { METRICS_ACCESS } from './metrics-access.js';

/** /health, /health/live and /metrics (open: the apps whose port is a health port of their own). */
@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController, MetricsController] })
export class HealthModule {
  /** The same on a public port (the gateway's): /metrics only with `token` (off without one). */
  static onPublicPort(token: string | undefined): DynamicModule {
    return { module: HealthModule, providers: [{ provide: METRICS_ACCESS, useValue: { public: true, token } }] };
  }
}
