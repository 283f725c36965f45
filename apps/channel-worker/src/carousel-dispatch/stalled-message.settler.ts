import { Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { CarouselDispatchJob } from '@platform/contracts';
import { MessageRepository } from '@platform/database';
import { MessageLifecyclePublisher, StalledTooOftenError } from '@platform/queue';
import { acceptedMessage } from './carousel-dispatch.handler.js';

const FINAL = new Set<string>(['sent', 'delivered', 'read', 'failed']);

/**
 * Fails the message of a job BullMQ failed for stalling too often, as a last failed attempt would
 * (`failed`, with the reason as its last error); a message already final is left as it is. A job that
 * holds the Cloud API's wamid was sent: its message is recorded `sent` instead, unless that wamid is
 * recorded already. Every replica's sweeps may settle the same job again: nothing then changes and
 * nothing is published.
 */
@Injectable()
export class StalledMessageSettler {
  private readonly logger = new Logger('CarouselDispatch');

  constructor(
    private readonly messages: MessageRepository,
    private readonly lifecycle: MessageLifecyclePublisher,
  ) {}

  async settle(job: Job<CarouselDispatchJob>, err: StalledTooOftenError): Promise<void> {
    const wamid = job.data.providerMessageId;
    if (wamid) {
      const message = await this.messages.findForBot(job.data.botId, job.data.messageId);
      if (message?.providerMessageId === wamid && FINAL.has(message.status)) return;
      const [changes] = await this.messages.markSentMany([{ id: job.data.messageId, providerMessageId: wamid }]);
      await this.lifecycle.publish(changes);
      return;
    }
    const text = `The delivery job ${err.message}; the message is not tried again.`;
    const change = await this.messages.failUnlessFinal(acceptedMessage(job), 'stalled', text);
    if (change) {
      this.logger.error(`message ${job.data.messageId} failed: ${text}`);
      await this.lifecycle.publish([change]);
    }
  }
}
