import { BadRequestException, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import { CarouselDispatchJob, TriggerCarouselDto, isUuid } from '@platform/contracts';
import { CarouselCatalog, ChannelSenderRepository } from '@platform/database';
import { TriggerBatcher } from './trigger-batcher.js';

const queued = new Counter({ name: 'carousel_messages_queued_total', help: 'Carousel messages accepted and queued' });

/** Checks a trigger against the bot's templates and senders, records the message and queues it. */
@Injectable()
export class CarouselTriggerService {
  constructor(
    private readonly catalog: CarouselCatalog,
    private readonly senders: ChannelSenderRepository,
    private readonly batcher: TriggerBatcher,
  ) {}

  /** Returns the message id once the job is in Redis. */
  async trigger(botId: string, dto: TriggerCarouselDto): Promise<string> {
    const { notification } = dto;
    const template = isUuid(notification.templateId) ? await this.catalog.templateOfBot(botId, notification.templateId) : null;
    if (!template) throw new BadRequestException('notification.templateId is not a carousel template of this bot');
    if (template.channel !== notification.type) {
      throw new BadRequestException(`notification.type must be ${template.channel} for template ${template.id}`);
    }
    const sender = await this.catalog.senderByNumber(botId, notification.type, digits(notification.sender));
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

    const id = randomUUID();
    const job: CarouselDispatchJob = {
      messageId: id,
      cards: cards.map((c) => ({ mediaLink: c.media.mediaLink, ...(c.bodyParameters ? { bodyParameters: c.bodyParameters } : {}) })),
    };
    await this.batcher.enqueue(
      { id, botId, templateId: template.id, senderId: sender.id, channel: template.channel, recipient: digits(dto.userDetails.number) },
      job,
    );
    queued.inc();
    return id;
  }
}

function digits(number: string): string {
  return number.replace(/^\+/, '');
}
