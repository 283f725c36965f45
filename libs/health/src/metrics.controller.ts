import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { collectDefaultMetrics, register } from 'prom-client';

collectDefaultMetrics();

/** GET /metrics: Prometheus text format (process metrics plus each app's own counters). */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('content-type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
