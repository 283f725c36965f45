import { BadRequestException, HttpException, HttpStatus, Injectable, OnModuleInit, UnprocessableEntityException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyService } from '@platform/accounts';
import { authenticateApiKey, authenticateCachedApiKey } from '@platform/auth';
import { TriggerCarouselDto, TriggerCarouselResponse, isCertainlyValidTrigger } from '@platform/contracts';
import { readIdempotencyKey } from '../http/idempotency-key.js';
import { useDepthLimitedJsonParser } from '../http/json-body-parser.js';
import { assertJsonContentType } from '../http/json-content-type.guard.js';
import { createValidationPipe } from '../http/validation.pipe.js';
import { bodyFingerprint } from './body-fingerprint.js';
import { CarouselTriggerService, IdempotentTrigger, TriggerOutcome } from './carousel-trigger.service.js';
import { RateState, TriggerGuards } from './trigger-guards.js';
import { TriggerIdempotency } from './trigger-idempotency.js';

export const CAROUSEL_TRIGGER_PATH = '/api/engagements/notifications/v2/push';

const BODY = { type: 'body', metatype: TriggerCarouselDto, data: '' } as const;

/** The trigger's request: its JSON body as received is kept for the Idempotency-Key's fingerprint. */
interface TriggerRequest extends FastifyRequest {
  rawJson: string;
}

// Fastify compiles a serializer for the 200 body from this schema once (fast-json-stringify), instead of JSON.stringify per answer.
const RESPONSE_SCHEMA = {
  response: {
    200: {
      type: 'object',
      properties: { message: { type: 'string' }, status: { type: 'string' }, msgId: { type: 'string' } },
      required: ['message', 'status', 'msgId'],
      additionalProperties: false,
    },
  },
};

/**
 * The carousel trigger, the platform's hottest route, as a Fastify route registered by Nest instead of
 * a controller: the same checks in the same order (API key guard, JSON content type, DTO validation,
 * `bot`, Idempotency-Key), then the bot's quota (TriggerGuards), without the per-request guard/pipe/interceptor machinery, which cost about a fifth of the
 * gateway's CPU per trigger (BENCHMARKS.md). Errors go to the Fastify error handler, which answers
 * them exactly as the Nest exception filter does (toErrorResponse). OpenAPI: carousel-trigger.openapi.ts.
 */
@Injectable()
export class CarouselTriggerRoute implements OnModuleInit {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly apiKeys: ApiKeyService,
    private readonly trigger: CarouselTriggerService,
    private readonly guards: TriggerGuards,
    private readonly idempotency: TriggerIdempotency,
  ) {}

  async onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // In a plugin scope of its own, where the JSON parser keeps the text it parsed; the parsing is
    // the one every route has (nesting limit, Fastify's default parser with the instance's settings).
    await fastify.register(async (scope) => {
      scope.decorateRequest('rawJson', '');
      useDepthLimitedJsonParser(scope, (req, text) => ((req as TriggerRequest).rawJson = text));
      scope.post(CAROUSEL_TRIGGER_PATH, { schema: RESPONSE_SCHEMA }, (req, reply) => this.handle(req as TriggerRequest, reply));
    });
  }

  // Each step answers from memory when it can (`?? await` only when it cannot): a busy bot's trigger then
  // awaits only its job's queueing, and the promises of the steps between are not made (BENCHMARKS.md).
  private async handle(req: TriggerRequest, reply: FastifyReply): Promise<TriggerCarouselResponse> {
    const { botId } = authenticateCachedApiKey(req, this.apiKeys) ?? (await authenticateApiKey(req, this.apiKeys));
    // A bad trigger is charged to the quota too, so its 400 comes after the quota's answer and headers.
    let body: TriggerCarouselDto | undefined;
    let key: string | undefined;
    let invalid: unknown;
    try {
      assertJsonContentType(req);
      body = isCertainlyValidTrigger(req.body) ? req.body : ((await this.validation.transform(req.body, BODY)) as TriggerCarouselDto);
      const bot = (req.query as { bot?: unknown }).bot;
      if (typeof bot !== 'string' || bot === '') throw new BadRequestException('query parameter bot is required');
      key = readIdempotencyKey(req);
    } catch (err) {
      invalid = err;
    }
    const admission = this.guards.admitHeld(botId) ?? (await this.guards.admit(botId));
    setRateHeaders(reply, admission.rate);
    if (admission.verdict === 'over-quota') {
      reply.header('retry-after', String(admission.rate.resetSeconds));
      throw new HttpException(`Trigger quota of ${admission.rate.limit} per minute reached for this bot; retry in ${admission.rate.resetSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    if (invalid || !body) throw invalid;
    if (key === undefined) return queued((await this.trigger.trigger(botId, body)).msgId);

    const idempotent = { key, fingerprint: bodyFingerprint(req.rawJson) };
    const outcome = await this.triggerOnce(botId, body, idempotent);
    if (outcome.queued) return queued(outcome.msgId);
    const repeat = await this.idempotency.repeat(botId, outcome.msgId, idempotent.fingerprint);
    if (repeat.kind === 'other-body') throw new UnprocessableEntityException('This Idempotency-Key was already used with a different request body');
    reply.header('idempotent-replayed', 'true');
    return queued(repeat.msgId);
  }

  /**
   * A trigger with an Idempotency-Key: queued unless a message holds the key. One the checks refuse
   * (400) may still be the repeat of a trigger they accepted before (a template since changed): if a
   * message holds its key, the repeat is answered from that message instead.
   */
  private async triggerOnce(botId: string, body: TriggerCarouselDto, idempotent: IdempotentTrigger): Promise<TriggerOutcome> {
    try {
      return await this.trigger.trigger(botId, body, idempotent);
    } catch (err) {
      if (!(err instanceof BadRequestException)) throw err;
      const holder = await this.idempotency.holder(botId, idempotent.key);
      if (holder === undefined) throw err;
      return { msgId: holder, queued: false };
    }
  }
}

function queued(msgId: string): TriggerCarouselResponse {
  return { message: 'Carousel template queued for delivery', status: 'success', msgId };
}

/** The quota after this trigger, in the IETF draft's RateLimit-* headers (Reset: seconds until the window resets). */
function setRateHeaders(reply: FastifyReply, rate: RateState): void {
  reply.header('ratelimit-limit', rate.limit);
  reply.header('ratelimit-remaining', rate.remaining);
  reply.header('ratelimit-reset', rate.resetSeconds);
}
