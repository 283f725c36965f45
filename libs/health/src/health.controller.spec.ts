import 'reflect-metadata';
import { ServiceUnavailableException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TerminusModule } from '@nestjs/terminus';
import type { Worker } from 'bullmq';
import { PrismaService } from '@platform/database';
import { REQUEST_REDIS, WorkerBase, type QueueJob } from '@platform/queue';
import { createTestRedisUrl } from '@platform/testing';
import { HealthController } from './health.controller.js';

/** A real BullMQ worker of the fan-out queue that takes no jobs in this test. */
class IdleWorker extends WorkerBase<'push-fanout'> {
  constructor(redisUrl: string) {
    super({ queue: 'push-fanout', redis: { REDIS_URL: redisUrl }, connectionName: 'health-spec', logName: 'IdleWorker', concurrency: 1 });
  }
  protected process(_job: QueueJob<'push-fanout'>): Promise<unknown> {
    return Promise.resolve();
  }
  /** The BullMQ worker itself, to stop it as its own failure would. */
  get bullWorker(): Worker {
    return (this as unknown as { worker: Worker }).worker;
  }
}

/** /health says not ok while the process's work has stopped, though Postgres and Redis answer. */
describe('HealthController', () => {
  let controller: HealthController;
  let worker: IdleWorker;

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [
        { provide: PrismaService, useValue: { $queryRaw: () => Promise.resolve([{ '?column?': 1 }]) } },
        { provide: REQUEST_REDIS, useValue: { ping: () => Promise.resolve('PONG') } },
      ],
    }).compile();
    controller = module.get(HealthController);
    worker = new IdleWorker(await createTestRedisUrl());
  }, 30_000);

  afterAll(() => worker.onApplicationShutdown(), 30_000);

  it('is ok while the queue worker runs, and 503 naming its queue once the worker stopped by itself', async () => {
    worker.onApplicationBootstrap();
    await expect(controller.check()).resolves.toMatchObject({ status: 'ok' });
    await worker.bullWorker.close();
    const failure = await controller.check().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: { 'queue-workers': { status: 'down', stopped: ['push-fanout'] } },
    });
  }, 30_000);
});
