import { Inject, Injectable } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { REQUEST_REDIS, type RedisClient } from '@platform/queue';

/**
 * One socket write per event-loop turn for the trigger's Redis commands: the batchers of the trigger
 * (TriggerGate's quota calls, TriggerBatcher's job adds) flush through `schedule`, so that a
 * turn's flushes run together in one check phase with the request connection corked. The socket is
 * uncorked by a tick queued from a microtask, which runs once the whole microtask queue has drained,
 * i.e. after every command the flushes started (BullMQ writes its `add` a few awaits later) is written;
 * a setImmediate would hold them back behind the next poll phase. A batch that leaves before the turn's
 * end (TickBatcher's `flushAt`) goes through `now`: corked the same way, so its commands also leave in
 * one write instead of one write (and one syscall) per command.
 *
 * A Cluster client has no one socket: a command goes, synchronously once the slot map is known, to the
 * connection of its slot's master. So each master's connection is corked for the turn instead, and a
 * turn's commands leave in one write per master they touch. A command that is redirected (MOVED/ASK)
 * or queued while the cluster reconnects is written later, outside the cork, which costs only its
 * own write; a node connected during the turn is simply not corked.
 */
@Injectable()
export class CorkedTurn {
  private flushes: Array<() => void> = [];

  constructor(@Inject(REQUEST_REDIS) private readonly redis: RedisClient) {}

  /** Runs `flush` in this turn's check phase, with the others scheduled in the turn. */
  readonly schedule = (flush: () => void): void => {
    if (this.flushes.push(flush) === 1) setImmediate(this.run);
  };

  /** Runs `flush` at once, with its commands written together once the microtasks it starts have run. */
  readonly now = (flush: () => void): void => this.corked([flush]);

  private readonly run = (): void => {
    const flushes = this.flushes;
    this.flushes = [];
    this.corked(flushes);
  };

  private corked(flushes: Array<() => void>): void {
    const sockets = this.sockets();
    for (const socket of sockets) socket.cork();
    void Promise.resolve().then(() => process.nextTick(() => sockets.forEach((socket) => socket.uncork())));
    for (const flush of flushes) flush();
  }

  private sockets(): Array<{ cork(): void; uncork(): void }> {
    const nodes = this.redis instanceof Cluster ? this.redis.nodes('master') : [this.redis];
    return nodes.flatMap((node) => (node.stream ? [node.stream] : []));
  }
}
