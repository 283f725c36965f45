import { ValidationError } from '../errors';

/** When the event stream gives up on a connection that stays open but carries nothing. */
export interface LivenessOptions {
  /** Time from creating the socket to the `ready` frame (default 15 s): covers a connect or auth that hangs. */
  readyTimeoutMs: number;
  /** Heartbeat interval assumed when `ready` does not announce one (default 25 s, the server's default). */
  defaultHeartbeatMs: number;
  /** After `ready`, silence of this many heartbeat intervals (no frame of any type) drops the connection (default 2.5). */
  silenceFactor: number;
}

export const DEFAULT_LIVENESS: LivenessOptions = {
  readyTimeoutMs: 15_000,
  defaultHeartbeatMs: 25_000,
  silenceFactor: 2.5,
};

/** Defaults filled in; each value must be a positive finite number, or a zero timer would reconnect in a loop. */
export function resolveLiveness(options: Partial<LivenessOptions> = {}): LivenessOptions {
  const resolved = { ...DEFAULT_LIVENESS, ...options };
  for (const key of Object.keys(DEFAULT_LIVENESS) as Array<keyof LivenessOptions>) {
    const value: unknown = resolved[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new ValidationError(`liveness.${key}`, 'type', `liveness.${key} must be a positive number of ${key === 'silenceFactor' ? 'intervals' : 'milliseconds'}`);
    }
  }
  return resolved;
}

/** How long the stream may stay silent after `ready` announced `heartbeatMs` (or did not). */
export function silenceLimitMs(options: LivenessOptions, heartbeatMs: number | undefined): number {
  return (heartbeatMs ?? options.defaultHeartbeatMs) * options.silenceFactor;
}
