import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { MessageStatusResponse, QueueNames } from '@platform/contracts';
import { Message, MessageRepository } from '@platform/database';
import { CarouselDispatchQueue, QueueJob, withTimeout } from '@platform/queue';

/**
 * A message's status for its bot. Until its first delivery attempt a message is only its job in Redis
 * (the worker writes the row), so a message without a row is looked up in the queue.
 */
@Injectable()
export class MessageStatusService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly env: CoreEnv,
    private readonly queue: CarouselDispatchQueue,
  ) {}

  /** The status, or null when the bot has no such message. */
  async find(botId: string, msgId: string): Promise<MessageStatusResponse | null> {
    const row = await this.messages.findForBot(botId, msgId);
    if (row) return messageStatusFromRow(row);
    const job = await withTimeout(this.queue.getJob(msgId), this.env.REDIS_COMMAND_TIMEOUT_MS, 'reading the message queue');
    if (!job || job.data.botId !== botId) return null;
    // Finished since the first read: its row was written meanwhile, unless the message was dropped.
    const written = job.finishedOn ? await this.messages.findForBot(botId, msgId) : null;
    return written ? messageStatusFromRow(written) : fromJob(job);
  }
}

/** The status answer of a message row. */
export function messageStatusFromRow(m: Message): MessageStatusResponse {
  return {
    msgId: m.id,
    botId: m.botId,
    channel: m.channel,
    recipient: m.recipient,
    status: m.status,
    attempts: m.attempts,
    providerMessageId: m.providerMessageId,
    lastError: m.lastErrorCode || m.lastErrorText ? { code: m.lastErrorCode, text: m.lastErrorText } : null,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    sentAt: m.sentAt?.toISOString() ?? null,
    deliveredAt: m.deliveredAt?.toISOString() ?? null,
    readAt: m.readAt?.toISOString() ?? null,
  };
}

/** A job with no row yet is queued; one that finished without a row was dropped (its template or sender was deleted). */
function fromJob(job: QueueJob<typeof QueueNames.carouselDispatch>): MessageStatusResponse {
  const { data } = job;
  const finishedAt = job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined;
  return {
    msgId: data.messageId,
    botId: data.botId,
    channel: data.channel,
    recipient: data.recipient,
    status: finishedAt ? 'failed' : 'queued',
    attempts: 0,
    providerMessageId: null,
    lastError: finishedAt ? { code: null, text: String(job.failedReason ?? job.returnvalue) } : null,
    createdAt: new Date(job.timestamp).toISOString(),
    updatedAt: finishedAt ?? new Date(job.timestamp).toISOString(),
    sentAt: null,
    deliveredAt: null,
    readAt: null,
  };
}
