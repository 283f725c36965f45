import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { REQUEST_REDIS } from '@platform/queue';

/**
 * One socket write per event-loop turn for the trigger's Redis commands: the batchers of the trigger
 * (TriggerGate's quota and key claims, TriggerBatcher's job adds) flush through `schedule`, so that a
 * turn's flushes run together in one check phase with the request connection corked. The socket is
 * uncorked by a tick queued from a microtask, which runs once the whole microtask queue has drained,
 * i.e. after every command the flushes started (BullMQ writes its `add` a few awaits later) is written;
 * a setImmediate would hold them back behind the next poll phase.
 */
@Injectable()
export class CorkedTurn {
  private flushes: Array<() => void> = [];

  constructor(@Inject(REQUEST_REDIS) private readonly redis: Redis) {}

  /** Runs `flush` in this turn's check phase, with the others scheduled in the turn. */
  readonly schedule = (flush: () => void): void => {
    if (this.flushes.push(flush) === 1) setImmediate(this.run);
  };

  private readonly run = (): void => {
    const flushes = this.flushes;
    this.flushes = [];
    const socket = this.redis.stream;
    socket?.cork();
    void Promise.resolve().then(() => process.nextTick(() => socket?.uncork()));
    for (const flush of flushes) flush();
  };
}
