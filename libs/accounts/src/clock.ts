import { Injectable } from '@nestjs/common';

/** Current time for every expiry decision of the auth lib; tests move it with advanceClock() of @platform/testing. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
