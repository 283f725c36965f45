import { Server, Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SHUTTING_DOWN_BODY } from './shutting-down.js';

/**
 * How long a draining gateway goes on answering requests on connections it already holds, unless every
 * one of them has closed sooner. A connection that carries a request while draining is closed by its
 * answer (Connection: close), so the ones left to close are those idle since the signal: a kept-alive
 * client may send on one of those at any moment, and closing it under that request resets it. Two
 * seconds covers a client whose event loop a busy host stalls, not only a request already on the wire.
 */
const DRAIN_MIN_MS = 2000;
/** Bound on the wait for requests in flight, well inside the 10 s the process has to stop. */
const DRAIN_MAX_MS = 5000;

/**
 * The gateway's side of a graceful stop, run before Nest tears any module down (so the requests still
 * in flight have their database and queue): stop accepting connections, keep serving the ones held
 * (each answer closing its connection) until the requests in flight are answered, then close the idle
 * connections. A request that still reaches the server after that gets a 503 with the platform's body.
 * Event streams and WebSockets are not waited for: they last until their services end them.
 */
export class HttpDrain {
  private draining = false;
  private closed = false;
  /**
   * Responses not yet closed. A count, not a Set of them: held in a Set, each request's HTTP objects
   * outlived the young generation's collections and went to the old one (2.6 KB a trigger, against
   * 0.08 KB with a count: BENCHMARKS.md, carousel trigger), to be freed only by full collections.
   */
  private inFlight = 0;
  private onIdle?: () => void;
  /** Open connections, and those that carried a request: a connection that never did is not idle to Node. */
  private readonly connections = new Set<Socket>();
  private readonly used = new WeakSet<Socket>();
  /** One listener for every response's close (Node emits it once per response): no closure per request. */
  private readonly untrack = (): void => {
    if (--this.inFlight === 0) this.onIdle?.();
  };

  constructor(
    private readonly fastify: FastifyInstance,
    private readonly timing: { minMs: number; maxMs: number } = { minMs: DRAIN_MIN_MS, maxMs: DRAIN_MAX_MS },
  ) {
    fastify.server.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    });
    fastify.addHook('onRequest', (req, reply, done) => {
      if (!this.used.has(req.raw.socket)) this.used.add(req.raw.socket);
      if (this.closed) {
        void reply.status(503).header('connection', 'close').header('retry-after', '1').send(SHUTTING_DOWN_BODY);
        return;
      }
      if (this.draining) void reply.header('connection', 'close');
      if (!isLongLived(req)) this.track(reply.raw);
      done();
    });
  }

  /** Stops accepting connections and waits, bounded, for the requests in flight. */
  async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    const server = this.fastify.server;
    // net's close, not http's: http's also drops idle keep-alive connections at once, and a request
    // already on its way over one of them would meet a reset. Fastify's own close later tolerates the
    // listener being closed already.
    if (server.listening) Server.prototype.close.call(server);
    const started = Date.now();
    await this.untilConnectionsClosed(this.timing.minMs);
    if (this.inFlight > 0) {
      let bound: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.onIdle = resolve;
        bound = setTimeout(resolve, Math.max(0, this.timing.maxMs - (Date.now() - started)));
      });
      clearTimeout(bound);
    }
    this.closed = true;
    server.closeIdleConnections();
    // Connections opened but never used (a browser's speculative ones) would hold the server's close
    // until Node's headers timeout, past the process's shutdown bound.
    for (const socket of this.connections) if (!this.used.has(socket)) socket.destroy();
  }

  /** Waits `ms`, or less once no connection is left open (nothing could still send a request). */
  private async untilConnectionsClosed(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.connections.size > 0 && Date.now() < until) await delay(Math.min(50, until - Date.now()));
  }

  private track(res: ServerResponse): void {
    this.inFlight++;
    res.on('close', this.untrack);
  }
}

/** Server-Sent Events and WebSocket upgrades: open until their services close them at shutdown. */
function isLongLived(req: FastifyRequest): boolean {
  return req.headers.upgrade !== undefined || (req.headers.accept ?? '').includes('text/event-stream');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
