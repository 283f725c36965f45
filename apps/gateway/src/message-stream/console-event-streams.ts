import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServerSentEvents } from './server-sent-events.js';

const PING_MS = 20_000;

/**
 * The console's open Server-Sent Event streams of one kind (the message log's, the try-it trace's): each
 * pinged so proxies keep it, ended with `end` and its reason after `lifetimeMs` (an access token's life,
 * so a stream never outlives the sign-in that asked for it by much) or at shutdown, and its feed
 * unsubscribed once it is over, whichever side ends it.
 */
export class ConsoleEventStreams {
  private readonly open = new Set<(reason?: string) => void>();

  constructor(private readonly lifetimeMs: number) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * Turns the reply into a stream and sends `ready`; null when the client left meanwhile (while the feed
   * was starting: its 'close' has come and gone), the stream then already ended and `unsubscribe` called.
   */
  start(req: FastifyRequest, reply: FastifyReply, unsubscribe: () => void): ServerSentEvents | null {
    reply.hijack();
    const events = new ServerSentEvents(reply.raw);
    const finish = (reason?: string) => {
      if (!this.open.delete(finish)) return;
      clearInterval(ping);
      clearTimeout(lifetime);
      unsubscribe();
      if (reason) events.send('end', { reason });
      events.end();
    };
    const ping = setInterval(() => events.ping(), PING_MS);
    const lifetime = setTimeout(() => finish('the stream lasts as long as an access token: open a new one'), this.lifetimeMs);
    this.open.add(finish);
    reply.raw.on('close', () => finish());
    if (reply.raw.destroyed || req.raw.destroyed) {
      finish();
      return null;
    }
    events.send('ready', {});
    return events;
  }

  /** Ends every open stream, telling its client why. */
  endAll(reason: string): void {
    for (const finish of [...this.open]) finish(reason);
  }
}
