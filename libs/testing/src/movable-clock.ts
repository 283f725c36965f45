import { Clock } from '@platform/common';

/** The system's time plus what a test moved it on by: hours of an outage pass in a test's seconds. */
export class MovableClock extends Clock {
  private offsetMs = 0;

  override now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Back to the system's time. */
  reset(): void {
    this.offsetMs = 0;
  }
}
