import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { PushEnv } from '@platform/config';
import type { PushPlanJob } from '@platform/contracts';
import type { DeviceRepository, NotificationRepository } from '@platform/database';
import { StalledTooOftenError, type ProducerQueue } from '@platform/queue';
import type { PushConfigService } from '../service-accounts/push-config.service.js';
import type { AccessTokenProvider } from '../fcm/access-token.provider.js';
import { TransientPushError } from '../fcm/transient-push.error.js';
import { PlanHandler } from './plan.handler.js';

const job = { data: { notificationId: 'n1' }, attemptsMade: 4, opts: { attempts: 5 } } as unknown as Job<PushPlanJob>;

function setup() {
  const failed: Array<[string, string]> = [];
  const handler = new PlanHandler(
    {
      failPlanning: async (id: string, reason: string) => void failed.push([id, reason]),
    } as unknown as NotificationRepository,
    {} as DeviceRepository,
    {} as PushConfigService,
    {} as AccessTokenProvider,
    {} as PushEnv,
    {} as ProducerQueue<'push-fanout'>,
  );
  return { handler, failed };
}

describe('PlanHandler.giveUp (the last attempt of a plan threw)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('fails the notification and stops planning (one statement), with the attempts and our own error wording', async () => {
    const { handler, failed } = setup();
    await handler.giveUp(job, new TransientPushError('token endpoint https://oauth2.googleapis.com/token unreachable: ETIMEDOUT'));
    expect(failed).toEqual([
      [
        'n1',
        'Planning the delivery failed after 5 attempts (last error: token endpoint https://oauth2.googleapis.com/token unreachable: ETIMEDOUT); ' +
          'devices not reached by then get nothing. Send the notification again once the cause is fixed.',
      ],
    ]);
  });

  it('does not put other errors (database, Redis, bugs) in the reason the bot sees', async () => {
    const { handler, failed } = setup();
    await handler.giveUp(job, new Error("Can't reach database server at db.internal:5432"));
    const [[, reason]] = failed;
    expect(reason).toContain('(last error: an internal error of the push service (its log has the details))');
    expect(reason).not.toContain('db.internal');
  });

  it('says so when BullMQ failed the job for stalling too often, without counting attempts', async () => {
    const { handler, failed } = setup();
    await handler.giveUp(job, new StalledTooOftenError(4));
    expect(failed).toEqual([
      [
        'n1',
        'Planning the delivery stalled too often (its worker process stopped mid-run 4 times, more than WORKER_MAX_STALLED_COUNT allows); ' +
          'devices not reached by then get nothing. Send the notification again once the cause is fixed.',
      ],
    ]);
  });
});
