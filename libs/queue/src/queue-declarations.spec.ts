import { CallbackEnv, PushEnv, WhatsAppRetryEnv } from '@platform/config';
import { QueueJobNames, type QueueName } from '@platform/contracts';
import { ProducerQueueTokens } from './producer-queues.js';
import { QueueDeclarations } from './queue-declarations.js';

const WEEK_S = 7 * 24 * 3600;
const envs = new Map<unknown, object>([
  [WhatsAppRetryEnv, { WHATSAPP_MAX_ATTEMPTS: 7, WHATSAPP_BACKOFF_MS: 1500 }],
  [PushEnv, { PUSH_JOB_ATTEMPTS: 3, PUSH_JOB_BACKOFF_MS: 900 }],
  [CallbackEnv, { CALLBACK_MAX_ATTEMPTS: 15, CALLBACK_BACKOFF_MS: 5000 }],
]);
const optionsOf = (queue: QueueName) => QueueDeclarations[queue].jobOptions(envs.get(QueueDeclarations[queue].env));

describe('QueueDeclarations', () => {
  it('declares every queue of the contracts, with a producer token named after it', () => {
    const queues = Object.keys(QueueJobNames).sort();
    expect(Object.keys(QueueDeclarations).sort()).toEqual(queues);
    expect(queues.map((q) => ProducerQueueTokens[q as QueueName].queueName)).toEqual(queues);
  });

  it("reads each queue's retries from its env class and keeps failed jobs a week", () => {
    expect(optionsOf('carousel-dispatch')).toEqual({
      attempts: 7,
      backoff: { type: 'exponential', delay: 1500, jitter: 0.5 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: WEEK_S },
    });
    expect(optionsOf('conversation-reply')).toMatchObject({ attempts: 7, backoff: { type: 'exponential', delay: 1500, jitter: 0.5 } });
    expect(optionsOf('push-fanout')).toEqual({ attempts: 3, backoff: { type: 'exponential', delay: 900, jitter: 0.5 }, removeOnComplete: { age: 3600 }, removeOnFail: { age: WEEK_S } });
    const callbacks = { attempts: 15, backoff: { type: 'exponential', delay: 5000, jitter: 0.2 }, removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: WEEK_S } };
    expect(optionsOf('callbacks')).toEqual(callbacks);
    // Jobs an earlier version queued are drained into `callbacks`, retried alike.
    expect(optionsOf('bot-webhook')).toEqual(callbacks);
    expect(optionsOf('message-postback')).toEqual(callbacks);
  });
});
