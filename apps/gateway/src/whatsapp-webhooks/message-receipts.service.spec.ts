import { jest } from '@jest/globals';
import type { MessageStatusChange } from '@platform/contracts';
import type { ConversationRepository, HeldStatusRepository, MessageRepository, ProviderStatusUpdate } from '@platform/database';
import type { MessageLifecyclePublisher } from '@platform/queue';
import type { ReceiptStatus, StatusEvent } from '@platform/whatsapp';
import { MessageReceiptsService } from './message-receipts.service.js';

/** Message ids; any two of them went to different lanes (a hash of the id, odd or even) when there were two. */
const [A, B, C, D] = ['wamid.0', 'wamid.1', 'wamid.2', 'wamid.3'];

const event = (providerMessageId: string, status: ReceiptStatus, seconds = 1): StatusEvent => ({ providerMessageId, status, at: new Date(seconds * 1000), error: null });
const change = (messageId: string, status: 'delivered' | 'read'): MessageStatusChange => ({
  messageId,
  botId: 'bot',
  status,
  at: new Date(0).toISOString(),
  error: null,
  postbackUrl: null,
  customPayload: null,
});

/**
 * Which statuses the service keeps for later, and the second look it takes after keeping them; the
 * statements themselves (folding, expiry, applying once) run against Postgres in
 * test/whatsapp-status-before-send.e2e-spec.ts and test/held-provider-statuses.e2e-spec.ts.
 */
function setup(o: { carousel?: string[]; replies?: string[]; heldApplied?: MessageStatusChange[] } = {}) {
  const calls: string[] = [];
  const held: ProviderStatusUpdate[] = [];
  const published: MessageStatusChange[][] = [];
  const known =
    (ids: string[] = []) =>
    (updates: readonly ProviderStatusUpdate[]) =>
      updates.map((u) => u.providerMessageId).filter((id) => !ids.includes(id));
  const applied: ProviderStatusUpdate[][] = [];
  const gate: { wait?: Promise<void>; fail?: Error } = {};
  const messages = {
    applyProviderStatuses: async (updates: readonly ProviderStatusUpdate[]) => {
      calls.push('messages.apply');
      applied.push([...updates]);
      await gate.wait;
      if (gate.fail) throw gate.fail;
      return { unknown: known(o.carousel)(updates), changes: [] };
    },
    applyHeldStatuses: async (ids: readonly string[]) => {
      calls.push(`messages.applyHeld ${ids.join(',')}`);
      return o.heldApplied ?? [];
    },
  } as unknown as MessageRepository;
  const conversations = {
    applyProviderStatuses: async (updates: readonly ProviderStatusUpdate[]) => {
      calls.push(`conversations.apply ${updates.map((u) => u.providerMessageId).join(',')}`);
      return { unknown: known(o.replies)(updates) };
    },
    applyHeldStatuses: async (ids: readonly string[]) => {
      calls.push(`conversations.applyHeld ${ids.join(',')}`);
      return 0;
    },
  } as unknown as ConversationRepository;
  const heldStatuses = {
    hold: async (updates: readonly ProviderStatusUpdate[]) => {
      calls.push(`hold ${updates.map((u) => u.providerMessageId).join(',')}`);
      held.push(...updates);
    },
  } as unknown as HeldStatusRepository;
  const lifecycle = { publish: async (c: MessageStatusChange[]) => void published.push(c) } as unknown as MessageLifecyclePublisher;
  return { service: new MessageReceiptsService(messages, conversations, heldStatuses, lifecycle), calls, held, published, applied, gate };
}

describe('MessageReceiptsService: statuses of message ids not recorded yet', () => {
  it('holds nothing when every id is a carousel message or a bot reply', async () => {
    const R = 'wamid.R';
    const { service, calls } = setup({ carousel: [C], replies: [R] });
    await service.record([event(C, 'delivered'), event(R, 'read')]);
    expect(calls).toEqual(['messages.apply', `conversations.apply ${R}`]);
  });

  it('holds the furthest status of each unknown id, folded, but not a bare sent', async () => {
    const { service, held } = setup({ carousel: ['wamid.C'] });
    await service.record([event('wamid.C', 'read'), event('wamid.U', 'delivered', 5), event('wamid.U', 'read', 9), event('wamid.S', 'sent'), event('wamid.F', 'failed')]);
    expect(held.map((u) => [u.providerMessageId, u.status, u.deliveredAt, u.readAt])).toEqual([
      ['wamid.U', 'read', new Date(5000), new Date(9000)],
      ['wamid.F', 'failed', null, null],
    ]);
  });

  it('looks again after holding (a send recorded meanwhile), publishing what that applied', async () => {
    const late = change('m-1', 'delivered');
    const { service, calls, published } = setup({ heldApplied: [late] });
    await service.record([event('wamid.U', 'delivered')]);
    expect(calls).toEqual(['messages.apply', 'conversations.apply wamid.U', 'hold wamid.U', 'messages.applyHeld wamid.U', 'conversations.applyHeld wamid.U']);
    expect(published).toEqual([[], [late]]);
  });

  it('looks once more a while after holding (a send whose statement ran while the hold committed), and not after shutdown', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { service, calls } = setup();
      await service.record([event('wamid.U', 'delivered')]);
      calls.length = 0;
      await jest.advanceTimersByTimeAsync(1999);
      expect(calls).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toEqual(['messages.applyHeld wamid.U', 'conversations.applyHeld wamid.U']);

      await service.record([event('wamid.V', 'delivered')]);
      calls.length = 0;
      service.onApplicationShutdown();
      await jest.advanceTimersByTimeAsync(5000);
      expect(calls).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does nothing for no statuses', async () => {
    const { service, calls } = setup();
    await service.record([]);
    expect(calls).toEqual([]);
  });
});

describe('MessageReceiptsService: statuses of concurrent notifications share one statement', () => {
  it('folds the statuses of the notifications of one turn into one update per message id, and answers each caller after it', async () => {
    const { service, applied } = setup({ carousel: [A, B] });
    const answered: string[] = [];
    await Promise.all([
      service.record([event(A, 'delivered', 5)]).then(() => answered.push('1')),
      service.record([event(A, 'read', 9)]).then(() => answered.push('2')),
      service.record([event(B, 'sent', 1)]).then(() => answered.push('3')),
    ]);
    expect(applied).toHaveLength(1);
    expect(applied[0].map((u) => [u.providerMessageId, u.status, u.deliveredAt, u.readAt])).toEqual([
      [A, 'read', new Date(5000), new Date(9000)],
      [B, 'sent', null, null],
    ]);
    expect(answered.sort()).toEqual(['1', '2', '3']);
  });

  it('writes one batch at a time: the notifications of any message ids arriving meanwhile wait, then all go in one statement', async () => {
    const { service, applied, gate } = setup({ carousel: [A, B, C, D] });
    let open!: () => void;
    gate.wait = new Promise<void>((r) => (open = r));
    let firstDone = false;
    const first = service.record([event(A, 'delivered')]).then(() => (firstDone = true));
    await new Promise((r) => setImmediate(r));
    const later = [service.record([event(B, 'delivered')]), service.record([event(C, 'read')]), service.record([event(D, 'read')])];
    await new Promise((r) => setTimeout(r, 20));
    expect(applied.map((batch) => batch.map((u) => u.providerMessageId))).toEqual([[A]]);
    expect(firstDone).toBe(false);
    gate.wait = undefined;
    open();
    await Promise.all([first, ...later]);
    expect(applied.map((batch) => batch.map((u) => u.providerMessageId))).toEqual([[A], [B, C, D]]);
  });

  it('applies a notification of many message ids in one statement, and answers it once that is committed', async () => {
    const { service, applied, gate } = setup({ carousel: [A, B, C, D] });
    let open!: () => void;
    gate.wait = new Promise<void>((r) => (open = r));
    let done = false;
    const recorded = service.record([event(A, 'delivered'), event(B, 'read'), event(C, 'read'), event(D, 'delivered')]).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    open();
    await recorded;
    expect(applied.map((batch) => batch.map((u) => u.providerMessageId))).toEqual([[A, B, C, D]]);
  });

  it('takes at most 500 notifications in one statement; the rest go in the next', async () => {
    const wamids = Array.from({ length: 501 }, (_, i) => `wamid.n${i}`);
    const { service, applied } = setup({ carousel: wamids });
    await Promise.all(wamids.map((id) => service.record([event(id, 'delivered')])));
    expect(applied.map((batch) => batch.length)).toEqual([500, 1]);
  });

  it('rejects every caller of a batch whose statement failed (Meta retries them), and the next batch still runs', async () => {
    const { service, applied, gate } = setup({ carousel: [A, B, C] });
    gate.fail = new Error('database unavailable');
    const failed = await Promise.allSettled([service.record([event(A, 'delivered')]), service.record([event(B, 'delivered')])]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    gate.fail = undefined;
    await service.record([event(C, 'delivered')]);
    expect(applied.map((batch) => batch.map((u) => u.providerMessageId))).toEqual([[A, B], [C]]);
  });
});
