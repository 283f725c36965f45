import { Controller, Get, Headers, Inject, NotFoundException, Optional, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, register } from 'prom-client';
import { METRICS_ACCESS, type MetricsAccess } from './metrics-access.js';

collectDefaultMetrics();

/**
 * GET /metrics: Prometheus text format (process metrics plus each app's own counters). Open on the
 * workers' health ports, which stay inside the cluster. On the gateway's public port it told anyone
 * the platform's traffic, so there it answers only with METRICS_TOKEN as a bearer token (404 without
 * one configured, 401 with a wrong one).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@Optional() @Inject(METRICS_ACCESS) private readonly access?: MetricsAccess) {}

  @Get()
  metrics(@Res({ passthrough: true }) reply: FastifyReply, @Headers('authorization') authorization?: string): Promise<string> {
    if (this.access?.public) {
      const token = this.access.token;
      if (!token) throw new NotFoundException('/metrics is off on the public port: set METRICS_TOKEN and send it as Authorization: Bearer <token>');
      const given = Buffer.from(/^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '');
      const wanted = Buffer.from(token);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw new UnauthorizedException('/metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    // Set here rather than with @Header: a refusal above is JSON, which a text/plain header would break.
    reply.header('content-type', register.contentType);
    return register.metrics();
  }
}
