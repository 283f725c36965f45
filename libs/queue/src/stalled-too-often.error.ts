/** Why a job BullMQ failed for stalling did not finish, worded for whoever reads its message's or notification's failure. */
export class StalledTooOftenError extends Error {
  constructor(readonly stalls: number) {
    super(`stalled too often (its worker process stopped mid-run ${stalls} time${stalls === 1 ? '' : 's'}, more than WORKER_MAX_STALLED_COUNT allows)`);
    this.name = 'StalledTooOftenError';
  }
}
