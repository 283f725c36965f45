import { IntEnv } from '../env-decorators.js';
import { ListenEnv } from './listen-env.js';

/** WORKER_CONCURRENCY when unset (see below). */
export const DEFAULT_WORKER_CONCURRENCY = 300;

/** The channel worker: its dispatch concurrency and its /health server. */
export class WorkerEnv extends ListenEnv {
  @IntEnv({ min: 0, max: 65535 })
  WORKER_HEALTH_PORT: number = 3001;

  /**
   * Carousel jobs in flight per worker process. Sending is I/O-bound (a Cloud API call takes ~100-300 ms),
   * so 20 would cap a worker near 100 messages/s, and concurrent jobs share their database statements.
   * A paced job also waits in memory for its slot (up to a second, HOLD_IN_PROCESS_MS) while it holds
   * its place: at Meta's top tier (1,000/s on one number) three workers of 100 spent most of theirs
   * waiting and sent about 650/s while working through a burst; 300 each used 95 % of the rate.
   */
  @IntEnv({ min: 1, max: 1000 })
  WORKER_CONCURRENCY: number = DEFAULT_WORKER_CONCURRENCY;
}
