import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { PostbackLogEntry, PostbackView, generateWebhookSecret, isLifecycleStatus, isUuid } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotWebhookRepository, PostbackRecord, PostbackRepository } from '@platform/database';
import { PostbackQueue, withTimeout } from '@platform/queue';
import { PostbackUrlChecker } from './postback-url.checker.js';

/** A bot's postback URL (administrators), its delivery log, and replays of logged postbacks. */
@Injectable()
export class PostbackSettingsService {
  constructor(
    private readonly postbacks: PostbackRepository,
    private readonly webhooks: BotWebhookRepository,
    private readonly checker: PostbackUrlChecker,
    private readonly box: SecretBox,
    private readonly core: CoreEnv,
    private readonly queue: PostbackQueue,
  ) {}

  async view(botId: string): Promise<PostbackView> {
    const [url, webhook] = await Promise.all([this.postbacks.botUrl(botId), this.webhooks.find(botId)]);
    return { url: url ?? null, secretSet: !!webhook?.secretEncrypted };
  }

  /**
   * Sets the URL after checking it and the addresses its host resolves to. Postbacks are signed with
   * the bot's webhook secret: one is generated when the bot has none, and returned (once).
   */
  async set(botId: string, url: string): Promise<PostbackView & { secret?: string }> {
    const problem = await this.checker.problem(url);
    if (problem) throw new BadRequestException(`url ${problem}`);
    const webhook = await this.webhooks.find(botId);
    const secret = webhook?.secretEncrypted ? undefined : generateWebhookSecret();
    if (secret) await this.webhooks.setSecret(botId, this.box.encrypt(secret));
    await this.postbacks.setBotUrl(botId, url);
    return { url, secretSet: true, ...(secret ? { secret } : {}) };
  }

  clear(botId: string): Promise<void> {
    return this.postbacks.setBotUrl(botId, null);
  }

  async log(botId: string, page: number, pageSize: number) {
    const { items, total } = await this.postbacks.page(botId, page, pageSize);
    return { items: items.map(logEntry), page, pageSize, total };
  }

  /** Queues the logged postback again (same webhook-id and body, the URL it was sent to); it counts as further attempts. */
  async replay(botId: string, id: string): Promise<PostbackLogEntry> {
    const entry = isLogId(id) ? await this.postbacks.find(botId, id) : null;
    if (!entry || !isLifecycleStatus(entry.status)) throw new NotFoundException(`No postback ${id} for this bot`);
    const data = { id: entry.id, botId, messageId: entry.messageId, status: entry.status, url: entry.url, body: entry.body };
    const jobId = `${entry.id}.replay.${Date.now()}`;
    await withTimeout(this.queue.add('replay', data, { jobId }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the replay');
    return logEntry(entry);
  }
}

/** `<message uuid>.<status>` */
function isLogId(id: string): boolean {
  const [messageId, status, ...rest] = id.split('.');
  return rest.length === 0 && isUuid(messageId) && status !== undefined && isLifecycleStatus(status);
}

export function logEntry(r: PostbackRecord): PostbackLogEntry {
  return {
    id: r.id,
    messageId: r.messageId,
    status: r.status,
    url: r.url,
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
