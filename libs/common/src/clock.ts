import { Injectable } from '@nestjs/common';

/**
 * The time decisions about deadlines are made with (a message's validity). A provider, so a test can
 * run an outage of hours against a clock it moves on, while BullMQ's delays stay real milliseconds.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}
