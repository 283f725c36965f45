/**
 * The BullMQ workers of this process and whether each still takes jobs. A worker whose loop ended
 * (closed, or failed for good) leaves the process up and answering, but doing none of its work; the
 * process's /health reads this so that it never says ok then.
 */
export class QueueWorkerLiveness {
  private readonly workers = new Map<symbol, { queue: string; running: () => boolean }>();

  /** Registers a worker of `queue`; `running` says whether its loop still takes jobs. Returns the unregistration. */
  add(queue: string, running: () => boolean): () => void {
    const key = Symbol(queue);
    this.workers.set(key, { queue, running });
    return () => this.workers.delete(key);
  }

  /** The queues of the registered workers that no longer take jobs. */
  stopped(): string[] {
    return [...this.workers.values()].filter((w) => !w.running()).map((w) => w.queue);
  }
}

/** This process's workers: one process-wide list, since /health and the workers live in different modules. */
export const queueWorkerLiveness = new QueueWorkerLiveness();
