import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Worker } from 'bullmq';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { PushRequestQueue } from '@platform/contracts';
import { seedBotAdmin, testQueue, until } from '@platform/testing';
import { PushSandboxes, botApi, saveServiceAccount } from './push-support.js';
import { useStack } from './e2e-stack.js';

const REPLICAS = 3;
const REQUESTS = 30;

/** Gateway requests reach exactly one push-service replica, and never one whose caller gave up. */
describe('push requests: one replica each, by construction', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack({ push: sandboxes, seed: true });
  let impatientUrl: string;
  let botId: string;
  let apiKey: string;
  const replicas: NestFastifyApplication[] = [];
  /** Request jobs each replica's transport has run (its BullMQ worker's completed and failed jobs). */
  const handled: string[][] = [];
  stack.defer(async () => {
    for (const app of replicas) await app.close();
  });

  const workerOf = (app: NestFastifyApplication) => app.getMicroservices()[0].unwrap<Worker>();

  beforeAll(async () => {
    // A second gateway that waits 1 s for the push service, for the caller that gives up.
    impatientUrl = (await stack.replica({ PUSH_RPC_TIMEOUT_MS: '1000' })).url;
    ({ botId, apiKey } = stack.seed);
    for (let i = 0; i < REPLICAS; i++) {
      const app = await createPushService(stack.env);
      const jobs: string[] = [];
      workerOf(app).on('completed', (job) => void jobs.push(job.name));
      workerOf(app).on('failed', (job) => void jobs.push(`${job?.name} (failed)`));
      replicas.push(app);
      handled.push(jobs);
    }
    const admin = await seedBotAdmin(stack.gateway, botId, 'admin');
    expect((await saveServiceAccount(stack.url, botId, admin.accessToken, oauth.createServiceAccount('demo-single'))).status).toBe(200);
    // The save's answer can reach the caller before its job is recorded complete: wait, so it is not counted below.
    await until(async () => (handled.flat().includes('push.config.save') ? true : undefined), 10_000, 'the config save recorded as handled');
  });

  it(`${REQUESTS} test sends through ${REPLICAS} replicas: each is run by exactly one replica and reaches FCM once`, async () => {
    const api = botApi(stack.url, botId, apiKey);
    for (const jobs of handled) jobs.length = 0;
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const res = await api('POST', '/notifications/test', { token: `tok-single-${i}` });
        return { status: res.status, body: await res.json() };
      }),
    );
    for (const a of answers) expect(a).toMatchObject({ status: 200, body: { accepted: true } });
    for (let i = 0; i < REQUESTS; i++) expect(fcm.received(`tok-single-${i}`)).toHaveLength(1);
    const perReplica = () => handled.map((jobs) => jobs.filter((name) => name === 'push.notification.test').length);
    const total = () => perReplica().reduce((a, b) => a + b, 0);
    // An answer can reach the caller before its job is recorded complete: wait for the records.
    await until(async () => (total() >= REQUESTS ? true : undefined), 10_000, `${REQUESTS} test sends recorded as handled`);
    expect(total()).toBe(REQUESTS);
    expect(handled.flat().filter((name) => name !== 'push.notification.test')).toEqual([]);
    expect(perReplica().filter((n) => n > 0).length).toBeGreaterThan(1); // the replicas share the load
  });

  it('a request whose caller timed out (503) is not run when a replica gets to it later', async () => {
    for (const app of replicas) await workerOf(app).pause(); // listening, but taking nothing
    const res = await botApi(impatientUrl, botId, apiKey)('POST', '/notifications/test', { token: 'tok-too-late' });
    expect([res.status, await res.json()]).toEqual([503, { message: 'The push service did not answer within 1000 ms. Retry later.', status: 'error' }]);
    // The caller removes its request from the queue once it gave up; that happens after its 503 is sent.
    const queue = testQueue(PushRequestQueue, stack.env);
    await until(async () => ((await queue.getJobCounts('wait')).wait === 0 ? true : undefined), 10_000, 'the timed-out request removed');
    for (const jobs of handled) jobs.length = 0;
    for (const app of replicas) workerOf(app).resume();

    // Replicas take work again (this request is answered) and the timed-out one is nowhere.
    const after = await botApi(stack.url, botId, apiKey)('POST', '/notifications/test', { token: 'tok-after' });
    expect(after.status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(fcm.received('tok-too-late')).toEqual([]);
    expect(handled.flat()).toEqual(['push.notification.test']);
    expect(await queue.getJobCounts('wait', 'active', 'delayed')).toEqual({ wait: 0, active: 0, delayed: 0 });
    await queue.close();
  });
});
