import { jest } from '@jest/globals';
import type { MessageStatusChange } from '@platform/contracts';
import type { ConversationRepository, HeldStatusRepository, MessageRepository, ProviderStatusUpdate } from '@platform/database';
import type { MessageLifecyclePublisher } from '@platform/queue';
import type { ReceiptStatus, StatusEvent } from '@platform/whatsapp';
import { MessageReceiptsService } from './message-receipts.service.js';

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
  const messages = {
    applyProviderStatuses: async (updates: readonly ProviderStatusUpdate[]) => {
      calls.push('messages.apply');
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
  return { service: new MessageReceiptsService(messages, conversations, heldStatuses, lifecycle), calls, held, published };
}

describe('MessageReceiptsService: statuses of message ids not recorded yet', () => {
  it('holds nothing when every id is a carousel message or a bot reply', async () => {
    const { service, calls } = setup({ carousel: ['wamid.C'], replies: ['wamid.R'] });
    await service.record([event('wamid.C', 'delivered'), event('wamid.R', 'read')]);
    expect(calls).toEqual(['messages.apply', 'conversations.apply wamid.R']);
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
