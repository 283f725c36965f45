import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CoreEnv, LifecycleStreamEnv } from '@platform/config';
import { ConversationHandoffDelivery, conversationHandoffStreamFields } from '@platform/contracts';
import { REQUEST_REDIS, type RedisClient, lifecycleStreamKey, withTimeout } from '@platform/queue';
import { WebhookDispatcher } from '../callbacks/webhook-dispatcher.service.js';

export type HandoffEventInput = Omit<ConversationHandoffDelivery, 'id' | 'createdAt'>;

/**
 * Tells other systems that a conversation changed hands: one entry on the lifecycle stream (with a
 * `type`, as endpoint.disabled) and one webhook call to the bot (signed and retried by the callbacks
 * system; dropped by the worker when the bot has no webhook). The change is committed in Postgres
 * before this runs, so a failure to tell is logged, never turned into a failed request the agent would retry.
 */
@Injectable()
export class ConversationHandoffEvents {
  private readonly logger = new Logger('ConversationHandoff');

  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly dispatcher: WebhookDispatcher,
    private readonly stream: LifecycleStreamEnv,
    private readonly core: CoreEnv,
  ) {}

  async publish(input: HandoffEventInput): Promise<ConversationHandoffDelivery> {
    const event: ConversationHandoffDelivery = { ...input, id: randomUUID(), createdAt: new Date().toISOString() };
    const xadd = this.redis.xadd(lifecycleStreamKey(this.core), 'MAXLEN', '~', this.stream.LIFECYCLE_STREAM_MAXLEN, '*', ...conversationHandoffStreamFields(event));
    const results = await Promise.allSettled([withTimeout(xadd, this.core.REDIS_COMMAND_TIMEOUT_MS, `publishing ${event.type}`), this.dispatcher.enqueue(event.botId, event)]);
    for (const r of results) {
      if (r.status === 'rejected') this.logger.error(`${event.type} of conversation ${event.conversationId} not fully told (stream or webhook): ${(r.reason as Error)?.message ?? r.reason}`);
    }
    return event;
  }
}
