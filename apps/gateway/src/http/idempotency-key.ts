import { BadRequestException, createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** 1-255 visible ASCII characters: no spaces, no control characters (a header sent twice is joined with ", ", so refused). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's `Idempotency-Key` header, undefined when absent; 400 when it breaks the rule. */
export function readIdempotencyKey(req: FastifyRequest): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new BadRequestException('Idempotency-Key must be 1-255 visible ASCII characters');
  }
  return key;
}

/** Controller parameter: the validated `Idempotency-Key` (readIdempotencyKey). */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext) => readIdempotencyKey(ctx.switchToHttp().getRequest<FastifyRequest>()));
