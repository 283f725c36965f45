import { IntEnv } from '../env-decorators.js';
import { ListenEnv } from './listen-env.js';

/** The channel worker: its dispatch concurrency and its /health server. */
export class WorkerEnv extends ListenEnv {
  @IntEnv({ min: 0, max: 65535 })
  WORKER_HEALTH_PORT: number = 3001;

  /**
   * Carousel jobs in flight per worker process. Sending is I/O-bound (a Cloud API call takes ~100-300 ms),
   * so 20 would cap a worker near 100 messages/s; 100 also lets concurrent jobs share their database statements.
   */
  @IntEnv({ min: 1, max: 1000 })
  WORKER_CONCURRENCY: number = 100;
}
