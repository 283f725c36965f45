import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DelayedError } from 'bullmq';
import type { CallbackEnv, CoreEnv } from '@platform/config';
import type { CallbackJob } from '@platform/contracts';
import type { QueueJob } from '@platform/queue';
import type { CallbackSender } from './callback-sender.js';
import { CallbackWorker } from './callback.worker.js';
import type { DeliveryTurn, MessageDeliveryOrder } from './message-delivery-order.js';

type Job = QueueJob<'callbacks'>;

/** The worker's part of the ordering guarantee: a message.received call goes only on its conversation's turn. */
describe('CallbackWorker', () => {
  const log: string[] = [];
  let turn: DeliveryTurn;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => (log.length = 0));

  const worker = new CallbackWorker(
    {} as CoreEnv,
    { CALLBACK_CONCURRENCY: 1 } as CallbackEnv,
    { send: async (job: CallbackJob, replay = false) => (log.push(`send ${job.id}${replay ? ' (replay)' : ''}`), 200) } as unknown as CallbackSender,
    {
      turn: async (id: string) => (log.push(`turn ${id}`), turn),
      release: async (id: string) => void log.push(`release ${id}`),
    } as unknown as MessageDeliveryOrder,
  );
  const run = (job: Partial<Job>) => (worker as unknown as { process(job: Job, token?: string): Promise<unknown> }).process(job as Job, 'token');
  const message: CallbackJob = { id: 'm2', botId: 'b', kind: 'webhook', event: 'message.received', url: null, body: '{}' };

  it('sends a message.received call on its turn and then lets the next message go', async () => {
    turn = 'go';
    expect(await run({ name: 'deliver', data: message })).toBe(200);
    expect(log).toEqual(['turn m2', 'send m2', 'release m2']);
  });

  it('puts a message whose earlier message is unsettled back to wait, without sending or using an attempt', async () => {
    turn = 'wait';
    const delayed: number[] = [];
    const job = { name: 'deliver', data: message, moveToDelayed: async (at: number) => void delayed.push(at) } as unknown as Job;
    await expect(run(job)).rejects.toBeInstanceOf(DelayedError);
    expect(log).toEqual(['turn m2']);
    expect(delayed).toHaveLength(1);
  });

  it('drops an erased message; sends other events and replays without waiting for a turn', async () => {
    turn = 'erased';
    expect(await run({ name: 'deliver', data: message })).toBe('erased');
    await run({ name: 'deliver', data: { ...message, id: 'e1', event: 'app.event' } });
    await run({ name: 'deliver', data: { ...message, id: 'p1', kind: 'postback', event: 'message.status', url: 'https://x/pb' } });
    await run({ name: 'replay', data: message });
    expect(log).toEqual(['turn m2', 'send e1', 'send p1', 'send m2 (replay)']);
  });
});
