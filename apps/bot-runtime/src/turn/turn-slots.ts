import { Injectable } from '@nestjs/common';
import { DatabaseEnv } from '@platform/config';

/**
 * Turn transactions one process runs at once. Each holds a pooled Postgres connection for as long as
 * its engine runs (http calls included), so more of them than the pool has connections would only
 * wait for one, and leave none for the handovers; two connections stay for those.
 */
@Injectable()
export class TurnSlots {
  readonly size: number;
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(db: DatabaseEnv) {
    this.size = this.free = Math.max(1, db.DATABASE_POOL_SIZE - 2);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
