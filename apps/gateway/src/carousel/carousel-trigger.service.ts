import { BadRequestException, Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Counter } from 'prom-client';
import { PlatformEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames, TriggerCarouselDto, isUuid } from '@platform/contracts';
import { ChannelSenderRepository, MessageRepository, TemplateRepository } from '@platform/database';
import { InjectQueue, withTimeout } from '@platform/queue';
import { QueueUnavailableError } from '../http/infra-errors.js';

const queued = new Counter({ name: 'carousel_messages_queued_total', help: 'Carousel messages accepted and queued' });

/** Checks a trigger against the bot's templates and senders, records the message and queues it. */
@Injectable()
export class CarouselTriggerService {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly senders: ChannelSenderRepository,
    private readonly messages: MessageRepository,
    private readonly env: PlatformEnv,
    @InjectQueue(QueueNames.carouselDispatch) private readonly queue: Queue<CarouselDispatchJob>,
  ) {}

  /** Returns the message id once the job is in Redis. */
  async trigger(botId: string, dto: TriggerCarouselDto): Promise<string> {
    const { notification } = dto;
    const template = isUuid(notification.templateId)
      ? await this.templates.findForBot(botId, notification.templateId)
      : null;
    if (!template) throw new BadRequestException('notification.templateId is not a carousel template of this bot');
    if (template.channel !== notification.type) {
      throw new BadRequestException(`notification.type must be ${template.channel} for template ${template.id}`);
    }
    const senderNumber = digits(notification.sender);
    const sender = await this.senders.findByNumber(botId, notification.type, senderNumber);
    if (!sender) {
      const count = await this.senders.countByChannel(botId, notification.type);
      throw new BadRequestException(
        count === 0
          ? `notification.type ${notification.type} has no sender configured for this bot`
          : `notification.sender is not a ${notification.type} sender of this bot`,
      );
    }
    const cards = notification.params.cards;
    if (cards.length !== template.cardCount) {
      throw new BadRequestException(
        `notification.params.cards must have exactly ${template.cardCount} cards for this template (got ${cards.length})`,
      );
    }

    const message = await this.messages.create({
      botId,
      templateId: template.id,
      senderId: sender.id,
      channel: template.channel,
      recipient: digits(dto.userDetails.number),
    });
    const job: CarouselDispatchJob = {
      messageId: message.id,
      cards: cards.map((c) => ({ mediaLink: c.media.mediaLink, ...(c.bodyParameters ? { bodyParameters: c.bodyParameters } : {}) })),
    };
    try {
      await withTimeout(
        this.queue.add('send', job, {
          jobId: message.id,
          attempts: this.env.WHATSAPP_MAX_ATTEMPTS,
          backoff: { type: 'exponential', delay: this.env.WHATSAPP_BACKOFF_MS, jitter: 0.5 },
          removeOnComplete: { age: 24 * 3600, count: 10_000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        }),
        this.env.REDIS_COMMAND_TIMEOUT_MS,
        'queueing the message',
      );
    } catch (err) {
      // Not queued, so not kept: the caller gets 500 and retries; a row left behind would never move.
      await this.messages.delete(message.id).catch(() => undefined);
      throw new QueueUnavailableError(err);
    }
    queued.inc();
    return message.id;
  }
}

function digits(number: string): string {
  return number.replace(/^\+/, '');
}
