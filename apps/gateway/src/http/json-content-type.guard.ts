import { BadRequestException, CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** For routes whose contract allows only JSON bodies (the form parser is registered for OAuth). */
@Injectable()
export class JsonContentTypeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    assertJsonContentType(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}

/** The guard's check, for routes served outside Nest's pipeline. */
export function assertJsonContentType(req: FastifyRequest): void {
  const type = req.headers['content-type'] ?? '(none)';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new BadRequestException(`Content-Type ${type} is not supported; send application/json`);
  }
}
