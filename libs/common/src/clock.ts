import { Injectable } from '@nestjs/common';

/**
 * The time the channel worker judges a message's retries by: its validity deadline, and how long it
 * waits before trying again. A provider, so that a test can run an outage of minutes or hours on a
 * clock that goes faster than the system's.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }

  /** The real milliseconds in which `ms` of this clock's time pass (what a BullMQ delay is given in). */
  realMs(ms: number): number {
    return ms;
  }
}
