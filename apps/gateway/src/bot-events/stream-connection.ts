import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { STREAM_CLOSE, StreamServerFrame } from '@platform/contracts';
import type { StoredEvent } from '@platform/conversations';

/** What a connection needs from the rest of the gateway (an interface, so the state machine can be unit-tested). */
export interface StreamDeps {
  authTimeoutMs: number;
  pingIntervalMs: number;
  /** Checks the chat token against the session: the user id, or why not. */
  authenticate(botId: string, sessionId: string, token: string): Promise<{ userId: string } | 'unauthorized' | 'gone'>;
  /** Subscribes the connection to its user's events and marks it live; called before 'ready' is sent. */
  register(connection: StreamConnection): Promise<void>;
  unregister(connection: StreamConnection): void;
  /** Heartbeat work: presence and session expiry. */
  heartbeat(connection: StreamConnection): Promise<void>;
  read(botId: string, userId: string, cursor: string, count: number): Promise<StoredEvent[]>;
  ack(botId: string, userId: string, id: string): Promise<void>;
  log(level: 'warn' | 'debug', message: string): void;
}

const PAGE = 100;

/**
 * One event-stream WebSocket: auth by the first frame, then every unacked event of the user after
 * 'ready', then new ones as they are announced (pull); acks drop events. Sends each event at most once
 * per connection (the cursor); a new connection starts from the oldest unacked event.
 */
export class StreamConnection {
  readonly id = randomUUID();
  userId = '';
  private state: 'awaitingAuth' | 'authenticating' | 'open' | 'closed' = 'awaitingAuth';
  private cursor = '0-0';
  private pulling = false;
  private pullAgain = false;
  private alive = true;
  private readonly authTimer: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    readonly botId: string,
    readonly sessionId: string,
    private readonly deps: StreamDeps,
  ) {
    this.authTimer = setTimeout(() => this.close(STREAM_CLOSE.unauthorized, 'no auth frame in time'), deps.authTimeoutMs);
    socket.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.onClosed());
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Sends whatever the user has after this connection's cursor; safe to call at any time and often. */
  pull(): void {
    if (this.state !== 'open') return;
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = true;
    void this.drain().finally(() => (this.pulling = false));
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.socket.close(code, reason);
    this.onClosed();
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.pullAgain = false;
        let page: StoredEvent[];
        do {
          page = await this.deps.read(this.botId, this.userId, this.cursor, PAGE);
          for (const { id, event } of page) {
            if (this.state !== 'open') return;
            this.send({ type: 'event', id, event });
            this.cursor = id;
          }
        } while (page.length === PAGE);
      } while (this.pullAgain && this.state === 'open');
    } catch (err) {
      // Redis hiccup: the next announcement or heartbeat pulls again from the same cursor.
      this.deps.log('warn', `event stream ${this.id}: reading events failed: ${(err as Error).message}`);
    }
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    const frame = isBinary ? undefined : parseFrame(data.toString('utf8'));
    if (this.state === 'awaitingAuth') {
      if (frame?.type !== 'auth' || typeof frame.token !== 'string') {
        this.close(STREAM_CLOSE.unauthorized, 'the first frame must be {"type":"auth","token":"<chat auth token>"}');
        return;
      }
      clearTimeout(this.authTimer);
      this.state = 'authenticating';
      void this.authenticate(frame.token);
      return;
    }
    if (this.state === 'open' && frame?.type === 'ack' && typeof frame.id === 'string') {
      this.deps.ack(this.botId, this.userId, frame.id).catch((err: Error) => this.deps.log('warn', `event stream ${this.id}: ack failed: ${err.message}`));
    }
    // Anything else is ignored, so that the protocol can grow.
  }

  private async authenticate(token: string): Promise<void> {
    let result: Awaited<ReturnType<StreamDeps['authenticate']>>;
    try {
      result = await this.deps.authenticate(this.botId, this.sessionId, token);
      if (result === 'gone') return this.close(STREAM_CLOSE.sessionGone, 'unknown or expired session');
      if (result === 'unauthorized') return this.close(STREAM_CLOSE.unauthorized, 'the chat auth token is not valid for this session');
      if (this.state !== 'authenticating') return; // closed meanwhile
      this.userId = result.userId;
      await this.deps.register(this);
    } catch (err) {
      this.deps.log('warn', `event stream ${this.id}: could not open: ${(err as Error).message}`);
      return this.close(1011, 'temporarily unavailable, reconnect');
    }
    if (this.state !== 'authenticating') {
      this.deps.unregister(this); // closed while registering
      return;
    }
    this.state = 'open';
    this.send({ type: 'ready', heartbeatMs: this.deps.pingIntervalMs });
    this.pingTimer = setInterval(() => this.beat(), this.deps.pingIntervalMs);
    this.pull();
  }

  private beat(): void {
    if (!this.alive) {
      this.deps.log('debug', `event stream ${this.id}: no pong, dropping the connection`);
      this.socket.terminate();
      this.onClosed();
      return;
    }
    this.alive = false;
    // The ping (answered by the client's WebSocket stack) tells this server the client is gone; the
    // heartbeat frame tells the client the server is still there, since apps cannot see pings.
    this.socket.ping();
    this.send({ type: 'heartbeat' });
    this.deps.heartbeat(this).catch((err: Error) => this.deps.log('warn', `event stream ${this.id}: heartbeat failed: ${err.message}`));
    this.pull(); // also covers announcements missed while the subscriber reconnected
  }

  private send(frame: StreamServerFrame): void {
    this.socket.send(JSON.stringify(frame));
  }

  private onClosed(): void {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    clearTimeout(this.authTimer);
    clearInterval(this.pingTimer);
    if (wasOpen) this.deps.unregister(this);
  }
}

function parseFrame(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
