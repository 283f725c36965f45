import { Clock } from '@platform/common';

/**
 * A Clock for tests: it runs `speed` times as fast as the system's (its waits shrink alike, so a
 * worker's backoff keeps its default settings), and `advance` moves it on at once.
 */
export class MovableClock extends Clock {
  private offsetMs = 0;
  private origin = Date.now();

  constructor(private readonly speed = 1) {
    super();
  }

  override now(): number {
    return this.origin + (Date.now() - this.origin) * this.speed + this.offsetMs;
  }

  override realMs(ms: number): number {
    return Math.max(1, Math.round(ms / this.speed));
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Back to the system's time (still at its speed from now on). */
  reset(): void {
    this.offsetMs = 0;
    this.origin = Date.now();
  }
}
