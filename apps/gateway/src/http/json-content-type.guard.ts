import { BadRequestException, CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** For routes whose contract allows only JSON bodies (the form parser is registered for OAuth). */
@Injectable()
export class JsonContentTypeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const type = context.switchToHttp().getRequest<FastifyRequest>().headers['content-type'] ?? '(none)';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new BadRequestException(`Content-Type ${type} is not supported; send application/json`);
    }
    return true;
  }
}
