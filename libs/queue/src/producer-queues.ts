import { BotQueueNames, CampaignQueueNames, CallbackQueueNames, ConversationQueueNames, LegacyCallbackQueueNames, PushQueueNames, QueueNames, type QueueName } from '@platform/contracts';
import type { ProducerQueue } from './queue-jobs.js';

/** A class that is only a Nest injection token: its instance type is queue Q's producer. */
export type ProducerQueueToken<Q extends QueueName> = (abstract new () => ProducerQueue<Q>) & { readonly queueName: Q };

function producerQueueToken<Q extends QueueName>(queueName: Q): ProducerQueueToken<Q> {
  abstract class Token {
    static readonly queueName = queueName;
  }
  return Token as unknown as ProducerQueueToken<Q>;
}

/*
 * The producer of each queue, injected by its type: a constructor parameter `queue: CarouselDispatchQueue`
 * gets that queue's `ProducerQueue` (QueueModule.forProducers provides it), so the token and the type
 * cannot disagree.
 */
export abstract class CarouselDispatchQueue extends producerQueueToken(QueueNames.carouselDispatch) {}
export abstract class ConversationReplyQueue extends producerQueueToken(ConversationQueueNames.conversationReply) {}
export abstract class PushFanoutQueue extends producerQueueToken(PushQueueNames.fanout) {}
export abstract class CallbackQueue extends producerQueueToken(CallbackQueueNames.callback) {}
export abstract class LegacyBotWebhookQueue extends producerQueueToken(LegacyCallbackQueueNames.botWebhook) {}
export abstract class LegacyPostbackQueue extends producerQueueToken(LegacyCallbackQueueNames.postback) {}
export abstract class BotTurnQueue extends producerQueueToken(BotQueueNames.botTurn) {}
export abstract class CampaignPlanQueue extends producerQueueToken(CampaignQueueNames.campaigns) {}

export const ProducerQueueTokens: { readonly [Q in QueueName]: ProducerQueueToken<Q> } = {
  [QueueNames.carouselDispatch]: CarouselDispatchQueue,
  [ConversationQueueNames.conversationReply]: ConversationReplyQueue,
  [PushQueueNames.fanout]: PushFanoutQueue,
  [CallbackQueueNames.callback]: CallbackQueue,
  [LegacyCallbackQueueNames.botWebhook]: LegacyBotWebhookQueue,
  [LegacyCallbackQueueNames.postback]: LegacyPostbackQueue,
  [BotQueueNames.botTurn]: BotTurnQueue,
  [CampaignQueueNames.campaigns]: CampaignPlanQueue,
};
