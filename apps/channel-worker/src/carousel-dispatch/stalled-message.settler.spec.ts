import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { CarouselDispatchJob, MessageStatusChange } from '@platform/contracts';
import type { MessageRepository } from '@platform/database';
import { StalledTooOftenError, type MessageLifecyclePublisher } from '@platform/queue';
import { StalledMessageSettler } from './stalled-message.settler.js';

const data: CarouselDispatchJob = { messageId: 'm1', botId: 'b1', templateId: 't1', senderId: 's1', channel: 'whatsapp', recipient: '5511999990000', cards: [] };

/** A settler over a fake repository; `stored` is the message's row as findForBot returns it. */
function setup(stored: { status: string; providerMessageId: string | null } | null = null) {
  const calls: string[] = [];
  const published: unknown[] = [];
  const messages = {
    findForBot: async () => stored,
    markSentMany: async (sends: Array<{ id: string; providerMessageId: string }>) => {
      calls.push(...sends.map((s) => `sent ${s.id} ${s.providerMessageId}`));
      return sends.map((s) => [{ messageId: s.id, status: 'sent' } as MessageStatusChange]);
    },
    failUnlessFinal: async (m: { id: string }, code: string) => {
      calls.push(`failed ${m.id} ${code}`);
      return { messageId: m.id, status: 'failed' } as MessageStatusChange;
    },
  } as unknown as MessageRepository;
  const lifecycle = { publish: async (changes: unknown[]) => void published.push(...changes) } as unknown as MessageLifecyclePublisher;
  return { settler: new StalledMessageSettler(messages, lifecycle), calls, published };
}

const job = (extra: Partial<CarouselDispatchJob> = {}) => ({ data: { ...data, ...extra }, timestamp: 0 }) as unknown as Job<CarouselDispatchJob>;

describe('StalledMessageSettler', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('fails the message of a job that stalled too often before the Cloud API accepted it', async () => {
    const { settler, calls, published } = setup();
    await settler.settle(job(), new StalledTooOftenError(4));
    expect(calls).toEqual(['failed m1 stalled']);
    expect(published).toEqual([{ messageId: 'm1', status: 'failed' }]);
  });

  it('records as sent, not failed, a job whose data holds the wamid the Cloud API answered', async () => {
    const { settler, calls, published } = setup();
    await settler.settle(job({ providerMessageId: 'wamid.1' }), new StalledTooOftenError(4));
    expect(calls).toEqual(['sent m1 wamid.1']);
    expect(published).toEqual([{ messageId: 'm1', status: 'sent' }]);
  });

  it('changes and publishes nothing for a job whose wamid is recorded already (another replica settled it)', async () => {
    for (const status of ['sent', 'delivered', 'read', 'failed']) {
      const { settler, calls, published } = setup({ status, providerMessageId: 'wamid.1' });
      await settler.settle(job({ providerMessageId: 'wamid.1' }), new StalledTooOftenError(4));
      expect({ status, calls, published }).toEqual({ status, calls: [], published: [] });
    }
  });

  it('records the wamid of a job whose message is still processing, or was failed without it', async () => {
    for (const stored of [
      { status: 'processing', providerMessageId: null },
      { status: 'failed', providerMessageId: null },
    ]) {
      const { settler, calls } = setup(stored);
      await settler.settle(job({ providerMessageId: 'wamid.1' }), new StalledTooOftenError(4));
      expect(calls).toEqual(['sent m1 wamid.1']);
    }
  });
});
