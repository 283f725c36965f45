import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { CoreEnv, LifecycleStreamEnv } from '@platform/config';
import type { CallbackJob, MessageStatusChange } from '@platform/contracts';
import type { CallbackQueue } from '../producer-queues.js';
import type { RedisClient } from '../redis-connections.js';
import { MessageLifecyclePublisher } from './message-lifecycle.publisher.js';

const core = { REDIS_COMMAND_TIMEOUT_MS: 100, REDIS_KEY_PREFIX: 'p:' } as CoreEnv;
const env = { LIFECYCLE_STREAM_MAXLEN: 5000 } as LifecycleStreamEnv;

type Behaviour = 'ok' | 'hangs' | 'entry fails';

/** A Redis client whose pipelines record their XADDs and answer as told; a postback queue recording its addBulk calls. */
function setup(opts: { redis?: Behaviour; queueFails?: boolean } = {}) {
  const pipelines: string[][][] = [];
  const bulks: Array<Array<{ name: string; data: CallbackJob; opts: { jobId: string } }>> = [];
  const redis = {
    pipeline() {
      const commands: string[][] = [];
      pipelines.push(commands);
      return {
        xadd: (...args: Array<string | number>) => commands.push(args.map(String)),
        exec: async () => {
          if (opts.redis === 'hangs') return new Promise(() => undefined);
          return commands.map((_, i) => (opts.redis === 'entry fails' && i === 0 ? [new Error('OOM command not allowed'), null] : [null, `${i}-0`]));
        },
      };
    },
  } as unknown as RedisClient;
  const queue = {
    addBulk: async (jobs: Array<{ name: string; data: CallbackJob; opts: { jobId: string } }>) => {
      if (opts.queueFails) throw new Error('Connection is closed.');
      bulks.push(jobs);
      return [];
    },
  } as unknown as CallbackQueue;
  return { publisher: new MessageLifecyclePublisher(redis, queue, env, core), pipelines, bulks };
}

const change = (messageId: string, over: Partial<MessageStatusChange> = {}): MessageStatusChange => ({
  messageId,
  botId: 'bot-1',
  status: 'sent',
  at: '2026-01-01T00:00:00.000Z',
  error: null,
  postbackUrl: null,
  customPayload: null,
  ...over,
});

describe('MessageLifecyclePublisher', () => {
  let errors: string[];
  beforeEach(() => {
    errors = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it('appends each change to the lifecycle stream under the key prefix, capped at LIFECYCLE_STREAM_MAXLEN', async () => {
    const { publisher, pipelines } = setup();
    await publisher.publish([change('m1', { status: 'failed', error: { code: '131026', text: 'undeliverable' }, customPayload: { order: 7 } })]);
    const head = ['p:platform:message-lifecycle', 'MAXLEN', '~', '5000', '*'];
    const fields = ['messageId', 'm1', 'botId', 'bot-1', 'status', 'failed', 'at', '2026-01-01T00:00:00.000Z', 'errorCode', '131026', 'errorText', 'undeliverable', 'customPayload', '{"order":7}'];
    expect(pipelines).toEqual([[[...head, ...fields]]]);
  });

  it('writes the changes of one event-loop turn in one pipeline, and skips the nulls', async () => {
    const { publisher, pipelines } = setup();
    await Promise.all([publisher.publish([change('m1'), null]), publisher.publish([change('m2')]), publisher.publish([null])]);
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0].map((xadd) => xadd[6])).toEqual(['m1', 'm2']);
    await publisher.publish([change('m3')]);
    expect(pipelines).toHaveLength(2);
  });

  it('queues a postback job only for changes with a postback URL, keyed by the postback id so a repeat is one delivery', async () => {
    const { publisher, bulks } = setup();
    await publisher.publish([change('m1', { postbackUrl: 'https://bot.test/pb', customPayload: 'x' }), change('m2'), change('m3', { status: 'read', postbackUrl: 'https://bot.test/pb' })]);
    expect(bulks).toHaveLength(1);
    expect(bulks[0].map((j) => [j.name, j.opts.jobId, j.data.url])).toEqual([
      ['deliver', 'm1.sent', 'https://bot.test/pb'],
      ['deliver', 'm3.read', 'https://bot.test/pb'],
    ]);
    expect(JSON.parse(bulks[0][0].data.body)).toEqual({
      type: 'message.status',
      id: 'm1.sent',
      messageId: 'm1',
      botId: 'bot-1',
      status: 'sent',
      timestamp: '2026-01-01T00:00:00.000Z',
      error: null,
      customPayload: 'x',
    });
  });

  it('adds no postback jobs when no change has a URL', async () => {
    const { publisher, bulks } = setup();
    await publisher.publish([change('m1')]);
    expect(bulks).toEqual([]);
  });

  it.each<[string, Parameters<typeof setup>[0]]>([
    ['Redis does not answer', { redis: 'hangs' }],
    ['a stream entry is refused', { redis: 'entry fails' }],
    ['the postback queue fails', { queueFails: true }],
  ])('never rejects when %s (the status is committed already): it logs what was not published', async (_case, opts) => {
    const { publisher } = setup(opts);
    await expect(publisher.publish([change('m1', { postbackUrl: 'https://bot.test/pb' }), change('m2')])).resolves.toBeUndefined();
    expect(errors).toEqual([expect.stringContaining('2 status change(s) not published')]);
  });
});
