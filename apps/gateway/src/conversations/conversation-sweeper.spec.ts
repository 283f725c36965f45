import 'reflect-metadata';
import type { ConversationEnv } from '@platform/config';
import type { ConversationRepository } from '@platform/database';
import { ConversationSweeper } from './conversation-sweeper.js';

function setup(messageBatches: number[], conversationBatches: number[], fail?: Error) {
  const calls: Array<{ what: string; before: Date; limit: number }> = [];
  const repo = {
    deleteMessagesBefore: async (before: Date, limit: number) => {
      calls.push({ what: 'messages', before, limit });
      if (fail) throw fail;
      return messageBatches.shift() ?? 0;
    },
    deleteUnusedBefore: async (before: Date, limit: number) => {
      calls.push({ what: 'conversations', before, limit });
      return conversationBatches.shift() ?? 0;
    },
  } as unknown as ConversationRepository;
  const env = { CONVERSATION_RETENTION_DAYS: 30, CONVERSATION_SWEEP_INTERVAL_SECONDS: 3600 } as ConversationEnv;
  return { sweeper: new ConversationSweeper(repo, env), calls };
}

describe('ConversationSweeper', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');

  it('deletes messages, then emptied conversations, older than the retention, in batches until one is short', async () => {
    const { sweeper, calls } = setup([1000, 1000, 7], [1000, 2]);
    await expect(sweeper.sweep(now)).resolves.toEqual({ messages: 2007, conversations: 1002 });
    expect(calls.map((c) => c.what)).toEqual(['messages', 'messages', 'messages', 'conversations', 'conversations']);
    expect(new Set(calls.map((c) => c.before.toISOString()))).toEqual(new Set(['2026-10-26T12:00:00.000Z']));
  });

  it('stops after 50 batches, so one run stays bounded', async () => {
    const { sweeper, calls } = setup(Array(60).fill(1000), []);
    await expect(sweeper.sweep(now)).resolves.toEqual({ messages: 50_000, conversations: 0 });
    expect(calls.filter((c) => c.what === 'messages')).toHaveLength(50);
  });

  it('survives a database failure (the next run tries again)', async () => {
    const { sweeper } = setup([], [], new Error('connection refused'));
    await expect(sweeper.sweep(now)).resolves.toEqual({ messages: 0, conversations: 0 });
  });
});
