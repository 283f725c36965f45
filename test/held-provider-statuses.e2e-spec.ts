import { randomBytes, randomUUID } from 'node:crypto';
import { ConversationRepository, HeldStatusRepository, MessageRepository, PROVIDER_STATUS_ORDER, PrismaService, ProviderStatusUpdate } from '@platform/database';
import { useStack } from './e2e-stack.js';

/**
 * The statements that keep statuses of message ids not recorded yet and apply them when the send is,
 * against real Postgres: folding, applying on markSentMany / markSent, expiry, and applying once.
 */
describe('held provider statuses (Postgres)', () => {
  const stack = useStack({ seed: true }, 120_000);
  let messages: MessageRepository;
  let conversations: ConversationRepository;
  let held: HeldStatusRepository;
  let db: PrismaService;
  let senderId: string;

  beforeAll(async () => {
    messages = stack.gateway.get(MessageRepository, { strict: false });
    conversations = stack.gateway.get(ConversationRepository, { strict: false });
    held = stack.gateway.get(HeldStatusRepository, { strict: false });
    db = stack.gateway.get(PrismaService, { strict: false });
    [{ id: senderId }] = await conversations.findSendersByPhoneNumberId(stack.seed.phoneNumberId);
  });

  const wamid = () => `wamid.${randomBytes(8).toString('hex')}`;
  const at = (s: number) => new Date(1_750_000_000_000 + s * 1000);
  const update = (providerMessageId: string, status: ProviderStatusUpdate['status'], o: Partial<ProviderStatusUpdate> = {}): ProviderStatusUpdate => ({
    providerMessageId,
    status,
    deliveredAt: status === 'delivered' || status === 'read' ? at(1) : null,
    readAt: status === 'read' ? at(2) : null,
    errorCode: status === 'failed' ? '131026' : null,
    errorText: status === 'failed' ? 'Message undeliverable' : null,
    ...o,
  });
  const heldRow = async (id: string) => (await db.heldProviderStatus.findUnique({ where: { wamid: id } })) ?? null;

  /** A carousel message claimed for its first attempt (status processing). */
  async function claimedMessage(): Promise<string> {
    const id = randomUUID();
    const [claimed] = await messages.startAttempts(
      [{ id, botId: stack.seed.botId, templateId: stack.seed.templateId, senderId, channel: 'whatsapp', recipient: '919876543210', acceptedAt: new Date() }],
      30_000,
    );
    expect(claimed).not.toBeNull();
    return id;
  }

  it('folds statuses held for one id: the furthest status, the earliest times; a failure after delivery is not taken', async () => {
    const id = wamid();
    await held.hold([update(id, 'delivered', { deliveredAt: at(5) })]);
    await held.hold([update(id, 'failed')]);
    await held.hold([update(id, 'delivered', { deliveredAt: at(3) })]);
    expect(await heldRow(id)).toMatchObject({ status: 'delivered', deliveredAt: at(3), readAt: null, errorCode: null });
    await held.hold([update(id, 'read', { deliveredAt: null, readAt: at(9) })]);
    expect(await heldRow(id)).toMatchObject({ status: 'read', deliveredAt: at(3), readAt: at(9) });
  });

  it('markSentMany applies what is held for its wamids and returns those changes after sent; nothing stays held', async () => {
    const [a, b] = [await claimedMessage(), await claimedMessage()];
    const [wa, wb] = [wamid(), wamid()];
    await held.hold([update(wa, 'read'), update(wb, 'failed')]);
    const changes = await messages.markSentMany([
      { id: a, providerMessageId: wa },
      { id: b, providerMessageId: wb },
      { id: randomUUID(), providerMessageId: wamid() },
    ]);
    expect(changes.map((c) => c.map((x) => [x.messageId, x.status]))).toEqual([
      [
        [a, 'sent'],
        [a, 'read'],
      ],
      [
        [b, 'sent'],
        [b, 'failed'],
      ],
      [],
    ]);
    expect(changes[0][1].at).toBe(at(2).toISOString());
    expect(changes[1][1].error).toEqual({ code: '131026', text: 'Message undeliverable' });
    expect(await db.message.findUnique({ where: { id: a } })).toMatchObject({ status: 'read', deliveredAt: at(1), readAt: at(2) });
    expect(await db.message.findUnique({ where: { id: b } })).toMatchObject({ status: 'failed', lastErrorCode: '131026' });
    expect([await heldRow(wa), await heldRow(wb)]).toEqual([null, null]);
  });

  it('markSentMany run again for a send Meta has moved on (its recording retried) leaves the message where it is', async () => {
    const id = await claimedMessage();
    const w = wamid();
    await messages.markSentMany([{ id, providerMessageId: w }]);
    await messages.applyProviderStatuses([update(w, 'delivered')], PROVIDER_STATUS_ORDER);
    expect(await messages.markSentMany([{ id, providerMessageId: w }])).toEqual([[]]);
    expect(await db.message.findUnique({ where: { id } })).toMatchObject({ status: 'delivered', providerMessageId: w });
  });

  it('a status held past its time is dropped, not applied; holding sweeps such statuses of other ids away', async () => {
    const [expired, other] = [wamid(), wamid()];
    await held.hold([update(expired, 'delivered'), update(other, 'read')]);
    await db.$executeRaw`UPDATE "held_provider_statuses" SET "held_at" = now() - interval '16 minutes' WHERE "wamid" = ANY(${[expired, other]}::text[])`;
    const id = await claimedMessage();
    expect((await messages.markSentMany([{ id, providerMessageId: expired }]))[0].map((c) => c.status)).toEqual(['sent']);
    expect(await db.message.findUnique({ where: { id } })).toMatchObject({ status: 'sent', deliveredAt: null });
    expect(await heldRow(expired)).toBeNull();
    await held.hold([update(wamid(), 'read')]);
    expect(await heldRow(other)).toBeNull();
  });

  it('a held status found by the send and by the webhook looking again is applied once', async () => {
    const id = await claimedMessage();
    const w = wamid();
    await messages.markSentMany([{ id, providerMessageId: w }]);
    await held.hold([update(w, 'delivered')]);
    const found = await Promise.all([messages.applyHeldStatuses([w]), messages.applyHeldStatuses([w]), messages.applyHeldStatuses([w])]);
    expect(found.flat().map((c) => [c.messageId, c.status])).toEqual([[id, 'delivered']]);
    expect(await heldRow(w)).toBeNull();
  });

  it('two batches over the same messages in opposite orders (two gateway replicas) both commit: the rows are locked in one order, no deadlock', async () => {
    // A table of a real size: the planner then looks each wamid up by index, in the batch's order.
    await db.$executeRaw`INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "provider_message_id", "created_at", "updated_at")
      SELECT gen_random_uuid(), ${stack.seed.botId}::uuid, ${stack.seed.templateId}::uuid, ${senderId}::uuid, 'whatsapp', '919876543210', 'read', 'wamid.filler' || g, now(), now()
      FROM generate_series(1, 50000) AS g`;
    await db.$executeRaw`ANALYZE "messages"`;
    const ids = await Promise.all(Array.from({ length: 300 }, () => claimedMessage()));
    const wamids = ids.map(() => wamid());
    await messages.markSentMany(ids.map((id, i) => ({ id, providerMessageId: wamids[i] })));
    const reversed = [...wamids].reverse();
    for (let round = 0; round < 6; round++) {
      const results = await Promise.allSettled([
        messages.applyProviderStatuses(
          wamids.map((w) => update(w, 'delivered')),
          PROVIDER_STATUS_ORDER,
        ),
        messages.applyProviderStatuses(
          reversed.map((w) => update(w, 'read')),
          PROVIDER_STATUS_ORDER,
        ),
      ]);
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      expect(await db.message.count({ where: { id: { in: ids }, status: 'read' } })).toBe(ids.length);
      await db.message.updateMany({ where: { id: { in: ids } }, data: { status: 'sent' } });
    }
  }, 120_000);

  it("ConversationRepository.recordParts applies what is held for a reply's part; markSent settles the reply from it", async () => {
    const { message } = await conversations.recordInbound({ botId: stack.seed.botId, channel: 'whatsapp', userId: '919800000001', senderId, type: 'text', content: { text: 'hi' }, at: new Date() });
    const reply = (await conversations.createOutbound(message.conversationId, 'text', { text: 'hello' }, 'processing'))?.message;
    const w = wamid();
    await held.hold([update(w, 'delivered')]);
    await conversations.recordParts(reply!.id, [w]);
    expect(await heldRow(w)).toBeNull();
    expect(await conversations.markSent(reply!.id, w)).toEqual({ count: 1 });
    expect(await db.conversationMessage.findUnique({ where: { id: reply!.id } })).toMatchObject({ status: 'delivered', providerMessageId: w });
    expect(await heldRow(w)).toBeNull();
  });
});
