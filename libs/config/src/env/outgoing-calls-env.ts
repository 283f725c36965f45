import { IntEnv } from '../env-decorators.js';

/** The four settings of one kind of signed, retried outgoing call, named `<PREFIX>_MAX_ATTEMPTS` and so on. */
export type OutgoingCallSettings<P extends string> = Record<`${P}_MAX_ATTEMPTS` | `${P}_BACKOFF_MS` | `${P}_TIMEOUT_MS` | `${P}_CONCURRENCY`, number>;

export interface OutgoingCallDefaults {
  /** Attempts of one call before it is given up (kept as a failed job); 1..50. */
  maxAttempts: number;
  /** First delay between attempts, in ms; doubles each time. */
  backoffMs: number;
  /** Time the receiver has to answer one call, in ms (at least 100). */
  timeoutMs: number;
  /** Calls one process makes at once; 1..1000. */
  concurrency: number;
}

/**
 * A base env class for the calls made to integrators' endpoints (bot webhooks, message postbacks): the
 * same four variables with the same bounds, under the prefix of each kind and with its own defaults.
 */
export function outgoingCallsEnv<P extends string>(prefix: P, defaults: OutgoingCallDefaults): new () => OutgoingCallSettings<P> {
  const variables: Array<[string, number, { min: number; max?: number }]> = [
    [`${prefix}_MAX_ATTEMPTS`, defaults.maxAttempts, { min: 1, max: 50 }],
    [`${prefix}_BACKOFF_MS`, defaults.backoffMs, { min: 1 }],
    [`${prefix}_TIMEOUT_MS`, defaults.timeoutMs, { min: 100 }],
    [`${prefix}_CONCURRENCY`, defaults.concurrency, { min: 1, max: 1000 }],
  ];
  class OutgoingCallsEnv {
    constructor() {
      for (const [name, value] of variables) Object.assign(this, { [name]: value });
    }
  }
  for (const [name, , bounds] of variables) IntEnv(bounds)(OutgoingCallsEnv.prototype, name);
  return OutgoingCallsEnv as unknown as new () => OutgoingCallSettings<P>;
}
