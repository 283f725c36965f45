/**
 * Group commit for hot statements: `run` is called once per event-loop turn with every item submitted
 * in that turn (at most `maxBatch`), and must answer one result per item, in order. A failure of `run`
 * rejects every caller of that batch. `schedule` runs the turn's flush (by default in a setImmediate);
 * batchers sharing one flush together, e.g. inside one corked socket write.
 */
export class TickBatcher<I, O> {
  private pending: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
    private readonly schedule: (flush: () => void) => void = setImmediate,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        this.schedule(this.flushTurn);
      }
    });
  }

  private readonly flushTurn = (): void => this.flush();

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      this.run(batch.map((p) => p.item)).then(
        (results) => batch.forEach((p, i) => p.resolve(results[i])),
        (err: unknown) => batch.forEach((p) => p.reject(err)),
      );
    }
  }
}
