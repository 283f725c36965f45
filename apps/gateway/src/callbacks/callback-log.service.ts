import { Injectable, NotFoundException } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { CallbackJob, CallbackKind, CallbackLogEntry, isCallbackKind, isLifecycleStatus } from '@platform/contracts';
import { CallbackDeliveryRecord, CallbackDeliveryRepository } from '@platform/database';
import { CallbackQueue, withTimeout } from '@platform/queue';

/** The delivery log of a bot's callbacks (webhook calls and postbacks), and replays of logged ones. */
@Injectable()
export class CallbackLogService {
  constructor(
    private readonly log: CallbackDeliveryRepository,
    private readonly core: CoreEnv,
    private readonly queue: CallbackQueue,
  ) {}

  async page(botId: string, page: number, pageSize: number, kind?: CallbackKind) {
    const { items, total } = await this.log.page(botId, page, pageSize, kind);
    return { items: items.map(logEntry), page, pageSize, total };
  }

  /**
   * Queues the logged event again with the same webhook-id and body, so a receiver that took it already
   * can drop it. A postback goes to the URL it was sent to; a webhook call to the bot's webhook as it is
   * now. Its attempts count in the entry's `attempts` and `replays`.
   */
  async replay(botId: string, id: string, kind?: CallbackKind): Promise<CallbackLogEntry> {
    const entry = id.length <= 200 ? await this.log.find(botId, id) : null;
    if (!entry || !isCallbackKind(entry.kind) || (kind && entry.kind !== kind)) throw new NotFoundException(`No ${kind ?? 'callback'} ${id} for this bot`);
    const job: CallbackJob = {
      id: entry.id,
      botId,
      kind: entry.kind,
      event: entry.event,
      url: entry.kind === 'postback' ? entry.url : null,
      body: entry.body,
      ...(entry.messageId ? { messageId: entry.messageId } : {}),
      ...(entry.status && isLifecycleStatus(entry.status) ? { status: entry.status } : {}),
    };
    await withTimeout(this.queue.add('replay', job, { jobId: `${entry.id}.replay.${Date.now()}` }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the replay');
    return logEntry(entry);
  }
}

export function logEntry(r: CallbackDeliveryRecord): CallbackLogEntry {
  return {
    id: r.id,
    kind: r.kind,
    event: r.event,
    messageId: r.messageId,
    status: r.status,
    url: r.url,
    attempts: r.attempts,
    replays: r.replays,
    duplicates: r.duplicates,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
