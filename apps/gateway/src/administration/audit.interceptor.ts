import { CallHandler, ExecutionContext, HttpException, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Observable, catchError, concatMap, from, map, throwError } from 'rxjs';
import { AUDIT_ACTION, MUTATING_METHODS, auditActionOf, auditTargetOf } from './audit-action.js';
import { AuditService } from './audit.service.js';

/**
 * Records every mutation made through an administrator route (one AdminTokenGuard let through): who, what,
 * on which bot, from which IP (Fastify's req.ip, which trusts X-Forwarded-For), and how it ended. Installed
 * once for the whole gateway, so a new administrator route is audited without a line of its own. The entry is
 * written before the answer leaves: a caller who saw the answer finds the entry.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly audit: AuditService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (!req.adminUser || !MUTATING_METHODS.has(req.method)) return next.handle();
    const handler = context.getHandler();
    const named = this.reflector.get<string | false | undefined>(AUDIT_ACTION, handler);
    if (named === false) return next.handle();
    const action = named ?? auditActionOf(req.method, req.routeOptions.url ?? req.url);
    const okStatus = (this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler) ?? (req.method === 'POST' ? 201 : 200)) as number;
    const write = (statusCode: number) =>
      this.audit.recordRequest(req, action, statusCode, auditTargetOf(req.params as Record<string, unknown>)).catch((err: Error) => {
        // The action is done: a lost entry is logged, not turned into a failed answer.
        this.logger.error(`audit entry for ${action} not written: ${err.message}`);
      });
    return next.handle().pipe(
      concatMap((value) => from(write(okStatus)).pipe(map(() => value))),
      catchError((err: unknown) => from(write(err instanceof HttpException ? err.getStatus() : 500)).pipe(concatMap(() => throwError(() => err)))),
    );
  }
}
