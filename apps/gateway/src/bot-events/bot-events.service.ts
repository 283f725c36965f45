import { Injectable } from '@nestjs/common';
import { SendBotEventDto } from '@platform/contracts';
import { SdkEventStore } from '@platform/conversations';

/** Bot → app: stores the event for the user (kept until acked) and announces it to every replica. */
@Injectable()
export class BotEventsService {
  constructor(private readonly store: SdkEventStore) {}

  async send(botId: string, dto: SendBotEventDto): Promise<{ eventId: string; delivered: number }> {
    const event = { code: dto.event.code, data: { code: dto.event.data.code, data: dto.event.data.data } };
    const { id, live } = await this.store.append(botId, dto.userId, event);
    return { eventId: id, delivered: live };
  }
}
