import { Queue } from 'bullmq';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { QueueNames } from '@platform/contracts';
import { MessageRepository } from '@platform/database';
import { OUTAGE_DATABASE_TIMEOUTS, carouselBody, carouselJobCount } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Outages get a quick 500 with a clear body, lose nothing silently, and heal without a restart. */
describe('carousel trigger when Redis or Postgres is down', () => {
  const stack = useStack({ ownInfra: 'outage', cloud: true, seed: true, env: { ...OUTAGE_DATABASE_TIMEOUTS } }, 120_000);

  const trigger = () =>
    fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey },
      body: JSON.stringify(carouselBody(stack.seed)),
    });

  async function timed(): Promise<{ status: number; body: any; ms: number }> {
    const start = Date.now();
    const res = await trigger();
    return { status: res.status, body: await res.json(), ms: Date.now() - start };
  }

  const jobCount = () => carouselJobCount({ REDIS_URL: stack.redis.url });

  async function until(ok: () => Promise<boolean>, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error('condition not reached in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('Redis stopped: 500 within 2 s with a clear body, no message left behind; back: the next trigger succeeds', async () => {
    expect((await trigger()).status).toBe(200);
    const jobsBefore = await jobCount();

    await stack.redis.stop();
    for (let i = 0; i < 3; i++) {
      const r = await timed();
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ status: 'error', message: 'The message queue is unavailable; nothing was queued. Retry later.' });
      expect(r.ms).toBeLessThan(2000);
    }

    await stack.redis.start();
    await until(async () => (await fetch(`${stack.url}/health`)).status === 200);
    const r = await timed();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    expect(await jobCount()).toBe(jobsBefore + 1); // the refused triggers left nothing in the queue
  }, 120_000);

  it('Postgres stopped: 500 within 2 s without internals; back: the next trigger succeeds', async () => {
    await stack.pg.stop();
    for (let i = 0; i < 2; i++) {
      const r = await timed();
      expect(r.status).toBe(500);
      expect(r.body.status).toBe('error');
      expect(r.body.message).not.toMatch(/at |Error|prisma|ECONN/i);
      expect(r.ms).toBeLessThan(2000);
    }
    expect((await fetch(`${stack.url}/health`)).status).toBe(503);

    await stack.pg.start();
    await until(async () => (await trigger()).status === 200);
  }, 120_000);

  it('Postgres down when the worker takes a job: the job waits without using an attempt, and is sent once Postgres is back', async () => {
    const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: stack.redis.url } });
    await queue.pause();
    await queue.drain(); // the earlier tests' triggers: this test counts what reaches the Cloud API
    const worker = await createChannelWorker(stack.env);
    stack.defer(() => worker.close());
    const res = await trigger();
    expect(res.status).toBe(200);
    const { msgId } = await res.json();
    // Until the worker's first attempt the message is its job: the status comes from the queue.
    const queued = await fetch(`${stack.url}/v1/messages/${msgId}`, { headers: { authorization: `Bearer ${stack.seed.apiKey}` } });
    expect(await queued.json()).toMatchObject({ msgId, status: 'queued', attempts: 0, recipient: '919876543210', lastError: null });

    await stack.pg.stop();
    await queue.resume();
    await until(async () => (await queue.getJob(msgId))?.getState().then((s) => s === 'delayed') ?? false);
    expect((await queue.getJob(msgId))?.attemptsMade).toBe(0);
    expect(stack.cloud.messages).toHaveLength(0);

    await stack.pg.start();
    const messages = stack.gateway.get(MessageRepository);
    await until(async () => (await messages.findForBot(stack.seed.botId, msgId).catch(() => null))?.status === 'sent', 20_000);
    expect(await messages.findForBot(stack.seed.botId, msgId)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(stack.cloud.messages).toHaveLength(1);
    await queue.close();
  }, 120_000);
});
