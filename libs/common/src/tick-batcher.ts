export interface TickBatcherOptions {
  /** Most items `run` is given at once (default 500). */
  maxBatch?: number;
  /** Runs the turn's flush (default setImmediate); batchers sharing one flush together, e.g. in one corked socket write. */
  schedule?: (flush: () => void) => void;
  /**
   * Items at which a batch leaves at once, without waiting for the turn's flush (default: never; at most
   * `maxBatch`). Under
   * closed-loop load a whole turn's batch makes the server and its store take turns: the store idles
   * while the server parses a poll phase's worth of requests, then the server idles while the store
   * commits them. A batch that leaves every few items lets the store commit one part while the server
   * is still parsing the next.
   */
  flushAt?: number;
  /**
   * Runs the flush of a batch that leaves at `flushAt` (default: at once). Given the same corked write
   * as `schedule`, its commands still leave in one write, only earlier.
   */
  runEarly?: (flush: () => void) => void;
}

type Pending<I, O> = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };

/**
 * Group commit for hot statements: `run` is called once per event-loop turn with every item submitted
 * in that turn (at most `maxBatch`, or `flushAt` when that is reached first), and must answer one result
 * per item, in order. A failure of `run` rejects every caller of that batch.
 */
export class TickBatcher<I, O> {
  private pending: Array<Pending<I, O>> = [];
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly schedule: (flush: () => void) => void;
  private readonly flushAt: number;
  private readonly runEarly: (flush: () => void) => void;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    options: TickBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.schedule = options.schedule ?? setImmediate;
    this.flushAt = options.flushAt === undefined ? Infinity : Math.min(options.flushAt, this.maxBatch);
    this.runEarly = options.runEarly ?? ((flush) => flush());
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      if (this.pending.push({ item, resolve, reject }) >= this.flushAt) {
        const batch = this.pending;
        this.pending = [];
        this.runEarly(() => this.runBatch(batch));
      } else if (!this.scheduled) {
        this.scheduled = true;
        this.schedule(this.flushTurn);
      }
    });
  }

  private readonly flushTurn = (): void => {
    this.scheduled = false;
    while (this.pending.length > 0) this.runBatch(this.pending.splice(0, this.maxBatch));
  };

  private runBatch(batch: Array<Pending<I, O>>): void {
    this.run(batch.map((p) => p.item)).then(
      (results) => batch.forEach((p, i) => p.resolve(results[i])),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  }
}
