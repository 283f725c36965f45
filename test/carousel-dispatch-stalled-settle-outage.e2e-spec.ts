import { ChildProcess, spawn } from 'node:child_process';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { MessageStatusResponse, QueueNames } from '@platform/contracts';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { messageStatus, testQueue, triggerCarousel, until, waitForMessageStatus } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/**
 * A carousel job BullMQ fails for stalling too often while Postgres is down: the worker cannot record
 * the message's failure then. Once Postgres is back the message still ends `failed`, without any
 * process restarting: the worker that failed the job tries again, and a worker that stopped before it
 * could is covered by another one's sweeps.
 */
describe('carousel dispatch: a job failed for stalling while Postgres is down is settled once it is back', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack(
    {
      ownInfra: 'stalled-settle-outage',
      cloud,
      seed: true,
      env: {
        WORKER_LOCK_MS: '1000',
        WORKER_MAX_STALLED_COUNT: '0', // the first stall fails the job
        WORKER_STALLED_SWEEP_MS: '2000',
      },
    },
    180_000,
  );
  const workers: NestFastifyApplication[] = [];
  let child: ChildProcess | undefined;
  const errors: string[] = [];

  stack.defer(async () => {
    child?.kill('SIGKILL');
    for (const w of workers.splice(0)) await w.close();
  });

  beforeAll(() => {
    // Observed, not replaced: the worker's logs tell when it tried to record a failure and could not.
    const error = Logger.prototype.error;
    jest.spyOn(Logger.prototype, 'error').mockImplementation(function (this: Logger, ...args: Parameters<Logger['error']>) {
      errors.push(String(args[0]));
      return error.apply(this, args);
    });
  });
  afterAll(() => jest.restoreAllMocks());

  const startWorker = async () => {
    const w = await createChannelWorker(stack.env);
    workers.push(w);
    return w;
  };
  const stopWorker = async (w: NestFastifyApplication) => {
    workers.splice(workers.indexOf(w), 1);
    await w.close();
  };

  /** Triggers a message and lets a built worker process take it (the Cloud API never answers); the process is left running. */
  async function sendFromChild(): Promise<string> {
    cloud.reply({ hang: true });
    const sent = cloud.messages.length;
    let stderr = '';
    const spawnChild = () => {
      child?.kill('SIGKILL');
      stderr = '';
      child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], {
        // A lock of its own long enough that a starved event loop on a loaded host does not lapse it: only
        // its death makes the job stall. The in-process workers check for stalls with the stack's 1 s lock.
        env: { ...process.env, ...stack.env, WHATSAPP_TIMEOUT_MS: '120000', WORKER_LOCK_MS: '10000' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2000)));
    };
    spawnChild();
    // Right after an outage a pooled connection may still be a dead one: a refused trigger queues nothing.
    const msgId = await until(() => triggerCarousel(stack.url, stack.seed).catch(() => undefined), 60_000, 'a trigger accepted');
    // A process starting on a busy host can take many seconds; one that exits at start (dist being rebuilt
    // by a concurrent build, say) is started again.
    let restarts = 0;
    await until(
      async () => {
        if (cloud.messages.length === sent + 1) return true;
        if (child!.exitCode !== null && restarts++ < 3) spawnChild();
        return undefined;
      },
      180_000,
      'the worker process sending',
    ).catch((err: Error) => Promise.reject(new Error(`${err.message} (${restarts} restarts; its stderr: ${stderr})`)));
    return msgId;
  }

  /** Stops Postgres, kills the process sending `msgId`, and waits for a worker to fail its job for stalling and fail to record it. */
  async function stallWhilePostgresIsDown(msgId: string): Promise<void> {
    expect((await messageStatus(stack.url, stack.seed, msgId)).status).toBe('processing');
    await stack.pg.stop();
    child!.kill('SIGKILL');
    const queue = testQueue(QueueNames.carouselDispatch, stack.env);
    try {
      const failed = await until(
        async () => {
          const job = await queue.getJob(msgId);
          return job?.finishedOn ? job : undefined;
        },
        60_000,
        'the job failing for stalling',
      );
      expect(failed.failedReason).toBe('job stalled more than allowable limit');
    } finally {
      await queue.close();
    }
    await until(async () => (triesToRecord(msgId) > 0 ? true : undefined), 60_000, 'a try at recording the failure');
  }

  /** Tries at recording `msgId`'s failure that failed, as the workers logged them. */
  const triesToRecord = (msgId: string) => errors.filter((line) => line.includes(`job ${msgId} stalled too often`) && line.includes('could not be recorded')).length;

  async function postgresBack(): Promise<void> {
    await stack.pg.start();
    await until(async () => ((await fetch(`${stack.url}/health`)).status === 200 ? true : undefined), 60_000, 'the gateway healthy again');
  }

  const expectStalledFailure = (s: MessageStatusResponse) => {
    expect(s).toMatchObject({ status: 'failed', attempts: 1, providerMessageId: null, lastError: { code: 'stalled' } });
    expect(s.lastError!.text).toBe('The delivery job stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows); the message is not tried again.');
  };

  it('the worker that failed the job records the failure once Postgres is back', async () => {
    const msgId = await sendFromChild();
    // Started while the process holds the job's lock: it is the one that fails the job once the process dies.
    await startWorker();
    await stallWhilePostgresIsDown(msgId);

    await postgresBack();
    expectStalledFailure(await waitForMessageStatus(stack.url, stack.seed, msgId, ['failed', 'sent'], 60_000));
    expect(cloud.messages).toHaveLength(1);
  }, 400_000);

  it('a worker that failed the job and stopped before recording it: a worker still running records it', async () => {
    for (const w of [...workers]) await stopWorker(w);
    const msgId = await sendFromChild();
    const failing = await startWorker();
    await stallWhilePostgresIsDown(msgId);
    await stopWorker(failing);
    // The other replica, running through the outage: its start-up sweep finds the job and cannot record it either.
    await startWorker();
    await until(async () => (triesToRecord(msgId) > 1 ? true : undefined), 60_000, "the other worker's try at recording the failure");

    await postgresBack();
    expectStalledFailure(await waitForMessageStatus(stack.url, stack.seed, msgId, ['failed', 'sent'], 60_000));
    expect(cloud.messages).toHaveLength(2);
  }, 400_000);
});
