import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { CarouselDispatchJob, ConversationQueueNames, ConversationReplyJob, QueueNames } from '@platform/contracts';
import { ConversationRepository, MessageRepository, PrismaService, migrate } from '@platform/database';
import { LocalPostgres, LocalRedis, startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { RECEIPT_ORDER } from '@platform/whatsapp';
import { SeededBot, carouselBody, createTestEnv, seedCarouselBot, testQueue, triggerCarousel, until } from '@platform/testing';

/**
 * A send the Cloud API accepted is never sent again because a write after it failed: Postgres stops
 * the moment the loopback Cloud API accepts a message, before the worker hears the answer.
 */
describe('WhatsApp sends when Postgres fails right after the Cloud API accepts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'send-once-'));
  const cloud = new WhatsAppCloudSandbox();
  let redis: LocalRedis;
  let pg: LocalPostgres;
  let gateway: NestFastifyApplication;
  let worker: NestFastifyApplication;
  let env: Record<string, string>;
  let url: string;
  let seed: SeededBot;

  beforeAll(async () => {
    redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
    pg = await startLocalPostgres({ dataDir: join(dir, 'pg'), persistent: true });
    const databaseUrl = await pg.createDatabase('send_once');
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'));
    env = await createTestEnv({
      REDIS_URL: redis.url,
      DATABASE_URL: databaseUrl,
      WHATSAPP_API_BASE_URL: `${await cloud.listen()}/v21.0`,
      // Stopping Postgres on a loaded host can take seconds while the send waits for its answer.
      WHATSAPP_TIMEOUT_MS: '60000',
      WORKER_HEALTH_PORT: '0',
    });
    gateway = await createGateway(env);
    url = await listenGateway(gateway);
    seed = await seedCarouselBot(gateway);
    worker = await createChannelWorker(env);
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await gateway?.close();
    await cloud.close();
    await redis?.stop();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** Waits for the job to reach `state` (it moves to `delayed` once Postgres refuses it). */
  async function jobState(queueName: string, jobId: string, state: string, timeoutMs = 60_000) {
    const queue = testQueue(queueName, env);
    try {
      await until(async () => ((await (await queue.getJob(jobId))?.getState()) === state ? true : undefined), timeoutMs, `job ${jobId} ${state}`);
    } finally {
      await queue.close();
    }
  }

  it('a carousel message: exactly one send, recorded `sent` with its wamid once Postgres is back', async () => {
    const recipient = '919800000001';
    cloud.onNextAccept(() => pg.stop());
    const msgId = await triggerCarousel(url, seed, carouselBody(seed, 3, `+${recipient}`));
    await until(async () => (cloud.accepted.get(recipient)?.length ? true : undefined), 60_000, 'the Cloud API accepting the message');
    await jobState(QueueNames.carouselDispatch, msgId, 'delayed');

    await pg.start();
    await jobState(QueueNames.carouselDispatch, msgId, 'completed', 90_000);
    const [wamid, ...again] = cloud.accepted.get(recipient)!;
    expect(again).toEqual([]);
    expect(await gateway.get(MessageRepository).findForBot(seed.botId, msgId)).toMatchObject({ status: 'sent', providerMessageId: wamid, attempts: 1 });
    const queue = testQueue<CarouselDispatchJob>(QueueNames.carouselDispatch, env);
    expect((await queue.getJob(msgId))?.data.providerMessageId).toBe(wamid);
    await queue.close();
  }, 240_000);

  it('a reply of two Cloud API messages: each is sent once, the second after Postgres is back; both parts recorded, delivered when both are', async () => {
    const recipient = '919800000002';
    const repo = gateway.get(ConversationRepository, { strict: false });
    const [sender] = await repo.findSendersByPhoneNumberId(seed.phoneNumberId);
    const { message: inbound } = await repo.recordInbound({ botId: seed.botId, channel: 'whatsapp', userId: recipient, senderId: sender.id, type: 'text', content: { text: 'hi' }, at: new Date() });
    const cards = [1, 2].map((n) => ({ title: `Card ${n}`, buttons: [{ title: `Pick ${n}`, payload: `p${n}` }] }));

    cloud.onNextAccept(() => pg.stop());
    const res = await fetch(`${url}/v1/bots/${seed.botId}/conversations/${inbound.conversationId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seed.apiKey}` },
      body: JSON.stringify({ cards }),
    });
    expect(res.status).toBe(202);
    const { messageId } = (await res.json()) as { messageId: string };
    await until(async () => (cloud.accepted.get(recipient)?.length ? true : undefined), 60_000, 'the Cloud API accepting the first part');
    await jobState(ConversationQueueNames.conversationReply, messageId, 'delayed');
    expect(cloud.accepted.get(recipient)).toHaveLength(1); // the second part waits for Postgres

    await pg.start();
    await jobState(ConversationQueueNames.conversationReply, messageId, 'completed', 90_000);
    const wamids = cloud.accepted.get(recipient)!;
    expect(wamids).toHaveLength(2);
    expect(await repo.findMessage(messageId)).toMatchObject({ status: 'sent', providerMessageId: wamids[0] });
    const db = gateway.get(PrismaService, { strict: false });
    const parts = await db.conversationMessagePart.findMany({ where: { messageId }, orderBy: { part: 'asc' } });
    expect(parts.map((p) => [p.part, p.providerMessageId, p.status])).toEqual([
      [0, wamids[0], 'sent'],
      [1, wamids[1], 'sent'],
    ]);
    const replies = testQueue<ConversationReplyJob>(ConversationQueueNames.conversationReply, env);
    expect((await replies.getJob(messageId))?.data.sentParts).toEqual(wamids);
    await replies.close();

    // Each part's status webhook is applied to its part; the reply is delivered once both parts are.
    const delivered = (wamid: string) => ({ providerMessageId: wamid, status: 'delivered' as const, errorCode: null, errorText: null });
    expect(await repo.applyProviderStatuses([delivered(wamids[1])], RECEIPT_ORDER)).toEqual({ unknown: [] });
    expect((await repo.findMessage(messageId))?.status).toBe('sent');
    expect(await repo.applyProviderStatuses([delivered(wamids[0])], RECEIPT_ORDER)).toEqual({ unknown: [] });
    expect((await repo.findMessage(messageId))?.status).toBe('delivered');
    const read = wamids.map((wamid) => ({ providerMessageId: wamid, status: 'read' as const, errorCode: null, errorText: null }));
    expect(await repo.applyProviderStatuses(read, RECEIPT_ORDER)).toEqual({ unknown: [] });
    expect((await repo.findMessage(messageId))?.status).toBe('read');
  }, 240_000);
});
