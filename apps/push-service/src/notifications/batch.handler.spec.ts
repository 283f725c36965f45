import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { PushBatchJob } from '@platform/contracts';
import type { BatchCounts, DeviceRepository, NotificationRepository } from '@platform/database';
import type { PushConfigService } from '../service-accounts/push-config.service.js';
import type { FcmSender } from '../fcm/fcm-sender.js';
import type { FcmPacer } from '../fcm/fcm-pacer.js';
import type { BatchProgressStore, DeviceOutcome } from './batch-progress.store.js';
import { BatchHandler } from './batch.handler.js';

const job = { data: { notificationId: 'n1', seq: 4, deviceIds: ['a', 'b', 'c', 'd'] }, attemptsMade: 2, opts: { attempts: 3 } } as unknown as Job<PushBatchJob>;

function setup(read: () => Promise<Map<string, DeviceOutcome>>, found = true) {
  const completed: Array<[string, number, BatchCounts]> = [];
  const dead: Array<[string, string[], string]> = [];
  const cleared: Array<[string, number]> = [];
  const handler = new BatchHandler(
    {
      findById: async () => (found ? { id: 'n1', botId: 'bot1' } : null),
      completeBatch: async (id: string, seq: number, c: BatchCounts) => completed.push([id, seq, c]) > 0,
    } as unknown as NotificationRepository,
    { markDead: async (botId: string, ids: string[], reason: string) => void dead.push([botId, ids, reason]) } as unknown as DeviceRepository,
    {} as PushConfigService,
    {} as FcmSender,
    { read, clear: async (id: string, seq: number) => void cleared.push([id, seq]) } as unknown as BatchProgressStore,
    {} as FcmPacer,
  );
  return { handler, completed, dead, cleared };
}

describe('BatchHandler.giveUp (the last attempt of a batch threw)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('counts the devices without an outcome as failed, keeps the recorded outcomes, through completeBatch', async () => {
    const { handler, completed, dead, cleared } = setup(
      async () =>
        new Map<string, DeviceOutcome>([
          ['a', 'sent'],
          ['b', 'invalid:UNREGISTERED'],
        ]),
    );
    await handler.giveUp(job, new Error('db down'));
    expect(completed).toEqual([['n1', 4, { sent: 1, failed: 2, invalidTokens: 1, skipped: 0 }]]);
    expect(dead).toEqual([['bot1', ['b'], 'UNREGISTERED']]);
    expect(cleared).toEqual([['n1', 4]]);
  });

  it('counts every device failed when the recorded outcomes cannot be read', async () => {
    const { handler, completed } = setup(async () => Promise.reject(new Error('WRONGTYPE')));
    await handler.giveUp(job, new Error('redis'));
    expect(completed).toEqual([['n1', 4, { sent: 0, failed: 4, invalidTokens: 0, skipped: 0 }]]);
  });

  it('does nothing for a notification that no longer exists', async () => {
    const { handler, completed } = setup(async () => new Map(), false);
    await handler.giveUp(job, new Error('x'));
    expect(completed).toEqual([]);
  });
});
