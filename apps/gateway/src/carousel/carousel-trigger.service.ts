import { BadRequestException, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import { CarouselDispatchJob, TemplateCardSpec, TriggerCarouselDto, isUuid } from '@platform/contracts';
import { CarouselCatalog, ChannelSenderRepository } from '@platform/database';
import { PostgresLiveness } from './postgres-liveness.js';
import { templateValues } from './template-values.js';
import { CallbackUrlChecker } from '../callbacks/callback-url.checker.js';
import { TriggerBatcher } from './trigger-batcher.js';
import { idempotencyClaim } from './trigger-idempotency.js';

const queued = new Counter({ name: 'carousel_messages_queued_total', help: 'Carousel messages accepted and queued' });

/** A trigger's Idempotency-Key and its body's fingerprint (bodyFingerprint). */
export interface IdempotentTrigger {
  key: string;
  fingerprint: string;
}

/** The trigger's outcome: its message queued, or (with an Idempotency-Key) the key found held by message `msgId`. */
export interface TriggerOutcome {
  msgId: string;
  queued: boolean;
}

/**
 * Checks a trigger against the bot's templates and senders and queues it. The job is the message until
 * the worker's first attempt writes its row, so Postgres is not on this path (the templates and senders
 * come from memory) but it must answer: while it is down, triggers are refused.
 */
@Injectable()
export class CarouselTriggerService {
  constructor(
    private readonly catalog: CarouselCatalog,
    private readonly senders: ChannelSenderRepository,
    private readonly batcher: TriggerBatcher,
    private readonly postgres: PostgresLiveness,
    private readonly postbackUrls: CallbackUrlChecker,
  ) {}

  /** Answers once the job is in Redis, or once its Idempotency-Key was found held (nothing queued then). */
  async trigger(botId: string, dto: TriggerCarouselDto, idempotent?: IdempotentTrigger): Promise<TriggerOutcome> {
    const { notification } = dto;
    this.postgres.assertReachable();
    const template = isUuid(notification.templateId) ? (this.catalog.heldTemplateOfBot(botId, notification.templateId) ?? (await this.catalog.templateOfBot(botId, notification.templateId))) : null;
    if (!template) throw new BadRequestException('notification.templateId is not a carousel template of this bot');
    if (template.channel !== notification.type) {
      throw new BadRequestException(`notification.type must be ${template.channel} for template ${template.id}`);
    }
    if (template.status !== 'APPROVED') {
      throw new BadRequestException(`notification.templateId names template ${template.providerName}, whose status at Meta is ${template.status}, not APPROVED`);
    }
    const number = withoutPlus(notification.sender);
    const sender = this.catalog.heldSenderByNumber(botId, notification.type, number) ?? (await this.catalog.senderByNumber(botId, notification.type, number));
    if (!sender) {
      const count = await this.senders.countByChannel(botId, notification.type);
      throw new BadRequestException(
        count === 0 ? `notification.type ${notification.type} has no sender configured for this bot` : `notification.sender is not a ${notification.type} sender of this bot`,
      );
    }
    const cards = notification.params.cards;
    if (cards.length !== template.cardCount) {
      throw new BadRequestException(`notification.params.cards must have exactly ${template.cardCount} cards for this template (got ${cards.length})`);
    }
    const values = templateValues(notification.params, {
      bodyParameterCount: template.bodyParameterCount,
      cards: template.cards as TemplateCardSpec[] | null,
    });

    const postbackUrl = dto.config?.postbackUrl;
    const postbackProblem = postbackUrl === undefined ? null : await this.postbackUrls.problem(postbackUrl);
    if (postbackProblem) throw new BadRequestException(`config.postbackUrl ${postbackProblem}`);
    const customPayload = dto.config?.customPayload ?? null;
    const validitySeconds = dto.config?.validitySeconds;

    const job: CarouselDispatchJob = {
      messageId: randomUUID(),
      botId,
      templateId: template.id,
      senderId: sender.id,
      channel: template.channel,
      recipient: withoutPlus(dto.userDetails.number),
      cards: values.cards,
    };
    // Set one by one rather than spread: the hottest object the gateway builds, made once.
    if (values.bodyParameters) job.bodyParameters = values.bodyParameters;
    if (postbackUrl !== undefined) job.postbackUrl = postbackUrl;
    if (customPayload !== null) job.customPayload = customPayload;
    if (validitySeconds !== undefined) job.validitySeconds = validitySeconds;
    if (idempotent) job.idempotencyFingerprint = idempotent.fingerprint;
    const msgId = await this.batcher.enqueue({ job, claim: idempotent && idempotencyClaim(botId, idempotent.key) });
    if (msgId !== job.messageId) return { msgId, queued: false };
    queued.inc();
    return { msgId, queued: true };
  }
}

/** The number as the Cloud API takes it: E.164 without its leading '+' (the DTO has checked the digits). */
function withoutPlus(number: string): string {
  return number.startsWith('+') ? number.slice(1) : number;
}
