import { CarouselDispatchJob, ConversationQueueNames, ConversationReplyJob, QueueNames } from '@platform/contracts';
import { ConversationRepository, MessageRepository, PrismaService } from '@platform/database';
import { RECEIPT_ORDER } from '@platform/whatsapp';
import { carouselBody, testQueue, triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { openWhatsAppConversation, postReply } from './whatsapp-support.js';

/**
 * A send the Cloud API accepted is never sent again because a write after it failed: Postgres stops
 * the moment the loopback Cloud API accepts a message, before the worker hears the answer.
 */
describe('WhatsApp sends when Postgres fails right after the Cloud API accepts', () => {
  const stack = useStack(
    {
      ownInfra: 'send_once',
      cloud: true,
      seed: true,
      worker: true,
      // Stopping Postgres on a loaded host can take seconds while the send waits for its answer. A
      // shorter lock than the default keeps the wait for a lease that Postgres' stop left (below) short.
      env: { WHATSAPP_TIMEOUT_MS: '20000', WORKER_LOCK_MS: '5000' },
    },
    120_000,
  );

  /** Waits for the job to reach `state` (it moves to `delayed` once Postgres refuses it). */
  async function jobState(queueName: string, jobId: string, state: string, timeoutMs = 60_000) {
    const queue = testQueue(queueName, stack.env);
    try {
      await until(async () => ((await (await queue.getJob(jobId))?.getState()) === state ? true : undefined), timeoutMs, `job ${jobId} ${state}`);
    } finally {
      await queue.close();
    }
  }

  it('a carousel message: exactly one send, recorded `sent` with its wamid once Postgres is back', async () => {
    const recipient = '919800000001';
    stack.cloud.onNextAccept(() => stack.pg.stop());
    const msgId = await triggerCarousel(stack.url, stack.seed, carouselBody(stack.seed, 3, `+${recipient}`));
    await until(async () => (stack.cloud.accepted.get(recipient)?.length ? true : undefined), 60_000, 'the Cloud API accepting the message');
    await jobState(QueueNames.carouselDispatch, msgId, 'delayed');

    await stack.pg.start();
    await jobState(QueueNames.carouselDispatch, msgId, 'completed', 90_000);
    const [wamid, ...again] = stack.cloud.accepted.get(recipient)!;
    expect(again).toEqual([]);
    expect(await stack.gateway.get(MessageRepository).findForBot(stack.seed.botId, msgId)).toMatchObject({ status: 'sent', providerMessageId: wamid, attempts: 1 });
    const queue = testQueue<CarouselDispatchJob>(QueueNames.carouselDispatch, stack.env);
    expect((await queue.getJob(msgId))?.data.providerMessageId).toBe(wamid);
    await queue.close();
  }, 240_000);

  it('a reply of two Cloud API messages: each is sent once, the second after Postgres is back; both parts recorded, delivered when both are', async () => {
    const recipient = '919800000002';
    const repo = stack.gateway.get(ConversationRepository, { strict: false });
    const conversationId = await openWhatsAppConversation(stack, recipient);
    const cards = [1, 2].map((n) => ({ title: `Card ${n}`, buttons: [{ title: `Pick ${n}`, payload: `p${n}` }] }));

    stack.cloud.onNextAccept(() => stack.pg.stop());
    const messageId = await postReply(stack, conversationId, { cards });
    await until(async () => (stack.cloud.accepted.get(recipient)?.length ? true : undefined), 60_000, 'the Cloud API accepting the first part');
    await jobState(ConversationQueueNames.conversationReply, messageId, 'delayed');
    expect(stack.cloud.accepted.get(recipient)).toHaveLength(1); // the second part waits for Postgres

    await stack.pg.start();
    // The run that sent the first part could not end its claim's lease with Postgres down: the next run
    // waits for it (5 s lock, 10 s pacing wait, the 20 s timeout, 5 s), then sends the second part.
    await jobState(ConversationQueueNames.conversationReply, messageId, 'completed', 180_000);
    const wamids = stack.cloud.accepted.get(recipient)!;
    expect(wamids).toHaveLength(2);
    expect(await repo.findMessage(messageId)).toMatchObject({ status: 'sent', providerMessageId: wamids[0] });
    const db = stack.gateway.get(PrismaService, { strict: false });
    const parts = await db.conversationMessagePart.findMany({ where: { messageId }, orderBy: { part: 'asc' } });
    expect(parts.map((p) => [p.part, p.providerMessageId, p.status])).toEqual([
      [0, wamids[0], 'sent'],
      [1, wamids[1], 'sent'],
    ]);
    const replies = testQueue<ConversationReplyJob>(ConversationQueueNames.conversationReply, stack.env);
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
  }, 360_000);
});
