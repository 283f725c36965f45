import { Inject, Injectable } from '@nestjs/common';
import { CoreEnv, LifecycleStreamEnv } from '@platform/config';
import { ConversationHandoffDelivery, conversationHandoffStreamFields, webhookCallbackJob } from '@platform/contracts';
import { CallbackQueue, REQUEST_REDIS, type RedisClient, lifecycleStreamKey, withTimeout } from '@platform/queue';
import type { BotRunConversation } from '@platform/database';

/**
 * Tells other systems that the bot's handoff node gave a conversation to a person: the same
 * `conversation.handoff` event as the handoff API's (docs/console.md#events-every-change-of-hands), with
 * `by: 'bot'` and the node's reason, on the lifecycle stream and as a webhook call to the bot. It runs in
 * the outbox handover, so a failure throws: the item stays in the outbox and the turn job is retried.
 * The event's id is the outbox item's, so a handover run again queues the same webhook-id (BullMQ keeps
 * one job per id: the bot is called once) and a stream reader sees the same `id` on a repeated entry.
 */
@Injectable()
export class HandoffEvents {
  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly callbacks: CallbackQueue,
    private readonly stream: LifecycleStreamEnv,
    private readonly core: CoreEnv,
  ) {}

  async handoff(conversation: BotRunConversation, id: string, reason: string | null): Promise<ConversationHandoffDelivery> {
    const event: ConversationHandoffDelivery = {
      type: 'conversation.handoff',
      id,
      botId: conversation.botId,
      conversationId: conversation.id,
      channel: conversation.channel,
      userId: conversation.userId,
      by: 'bot',
      member: null,
      reason,
      journeySlug: null,
      createdAt: new Date().toISOString(),
    };
    const job = webhookCallbackJob(event.botId, event);
    await withTimeout(this.callbacks.add('deliver', job, { jobId: job.id }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the conversation.handoff webhook call');
    await withTimeout(
      this.redis.xadd(lifecycleStreamKey(this.core), 'MAXLEN', '~', this.stream.LIFECYCLE_STREAM_MAXLEN, '*', ...conversationHandoffStreamFields(event)),
      this.core.REDIS_COMMAND_TIMEOUT_MS,
      'publishing conversation.handoff',
    );
    return event;
  }
}
