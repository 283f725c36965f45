/**
 * Another run now holds this batch (this run's lease ran out while its process was stopped): this run
 * stops handing messages to FCM and leaves the batch, its counts and its final failure to that run.
 */
export class BatchTakenOverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchTakenOverError';
  }
}
