import { QueueNames } from '@platform/contracts';
import type { RedisTarget } from '@platform/queue';
import { testQueue } from './test-infra.js';

/** Jobs of every state in the carousel dispatch queue of `env`'s Redis: what a trigger left behind, whatever the worker did since. */
export async function carouselJobCount(env: RedisTarget): Promise<number> {
  const queue = testQueue(QueueNames.carouselDispatch, env);
  try {
    const counts = await queue.getJobCounts('wait', 'delayed', 'prioritized', 'active', 'completed', 'failed');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  } finally {
    await queue.close();
  }
}
