import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';

/** Jobs of every state in the carousel dispatch queue on `redisUrl`: what a trigger left behind, whatever the worker did since. */
export async function carouselJobCount(redisUrl: string): Promise<number> {
  const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: redisUrl } });
  try {
    const counts = await queue.getJobCounts('wait', 'delayed', 'prioritized', 'active', 'completed', 'failed');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  } finally {
    await queue.close();
  }
}
