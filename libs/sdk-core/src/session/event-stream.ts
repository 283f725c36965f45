import type { BotEvent, BotEventMeta } from '../events/bot-event';
import { decodeServerFrame } from '../events/decode-frame';
import { SessionError, type SdkError } from '../errors';
import { WS_OPEN, type WebSocketConstructorLike, type WebSocketLike } from '../transport/websocket-like';
import { backoffDelay, type BackoffOptions } from './backoff';
import { silenceLimitMs, type LivenessOptions } from './liveness';
import { STREAM_CLOSE, type ClientFrame } from './protocol';
import { RecentIds } from './recent-ids';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface EventStreamOptions {
  url: string;
  token: string;
  WebSocket: WebSocketConstructorLike;
  backoff: BackoffOptions;
  liveness: LivenessOptions;
}

export interface EventStreamHandlers {
  /** May throw; the stream acks afterwards either way. */
  event(event: BotEvent, meta: BotEventMeta): void;
  error(error: SdkError): void;
  state(state: StreamState): void;
  /** The server closed with 4404: the session is gone and a new one is needed. */
  sessionGone(): void;
}

/**
 * One session's event stream: connects, authenticates with the first frame, decodes events, acks
 * them, and reconnects with backoff until `close()`. A connection that stays open but falls silent
 * (no `ready` in time, or no frame for a few heartbeat intervals: a phone that changed networks) is
 * dropped and replaced the same way, since its close event may never come.
 */
export class EventStream {
  private socket: WebSocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  /** Silence allowed on the current connection once `ready` arrived; undefined before it. */
  private silenceMs: number | undefined;
  private attempt = 0;
  private stopped = true;
  private readonly seen = new RecentIds();

  constructor(
    private readonly options: EventStreamOptions,
    private readonly on: EventStreamHandlers,
  ) {}

  open(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      try {
        socket.close(STREAM_CLOSE.normal, 'closed by app');
      } catch {
        // Already closing.
      }
    }
    this.on.state('closed');
  }

  private connect(): void {
    this.on.state(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let socket: WebSocketLike;
    try {
      socket = new this.options.WebSocket(this.options.url);
    } catch (error) {
      this.on.error(new SessionError('gaveUp', `Cannot open the event stream: ${String(error)}`, undefined, error));
      this.stop();
      return;
    }
    this.socket = socket;
    this.silenceMs = undefined;
    this.watch(socket, this.options.liveness.readyTimeoutMs);
    socket.onopen = () => {
      if (socket === this.socket) this.send(socket, { type: 'auth', token: this.options.token });
    };
    socket.onmessage = (message) => {
      if (socket !== this.socket) return;
      // Any frame, even one this client ignores or cannot decode, shows that the path carries data.
      if (this.silenceMs !== undefined) this.watch(socket, this.silenceMs);
      this.receive(socket, message.data);
    };
    // A close event follows every error; errors are handled there. Kept as a no-op (not null) because
    // the `ws` package throws on an 'error' event without listener.
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      clearTimeout(this.watchdog);
      this.closed(event.code, event.reason);
    };
  }

  private receive(socket: WebSocketLike, data: unknown): void {
    const frame = decodeServerFrame(data);
    switch (frame.kind) {
      case 'ready':
        this.attempt = 0;
        this.silenceMs = silenceLimitMs(this.options.liveness, frame.heartbeatMs);
        this.watch(socket, this.silenceMs);
        this.on.state('open');
        return;
      case 'heartbeat':
        return;
      case 'event':
        // Redeliveries (same id) are acked again but not handed to the app twice.
        if (this.seen.add(frame.id)) {
          try {
            this.on.event(frame.event, { id: frame.id, platformCode: frame.platformCode });
          } catch {
            // The handler reports listener failures itself.
          }
        }
        this.send(socket, { type: 'ack', id: frame.id });
        return;
      case 'malformed':
        // Acked too: redelivering an undecodable event would fail the same way.
        if (frame.id !== undefined) this.send(socket, { type: 'ack', id: frame.id });
        this.on.error(frame.error);
        return;
      case 'ignored':
        return;
    }
  }

  /** (Re)arms the timer that drops `socket` when nothing arrives within `ms`. */
  private watch(socket: WebSocketLike, ms: number): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (socket === this.socket) this.dropSilent(socket);
    }, ms);
    // Under Node, the silence timer alone must not keep a process alive (the socket does while it is open).
    (this.watchdog as { unref?: () => void }).unref?.();
  }

  /**
   * Gives up on a connection that went silent. Its close event is not awaited: on a dead path the
   * closing handshake may take minutes, so the stream forgets the socket and reconnects now.
   */
  private dropSilent(socket: WebSocketLike): void {
    const reason = this.silenceMs === undefined ? 'no ready frame in time' : 'no frame in time';
    this.socket = null;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    try {
      socket.close(STREAM_CLOSE.silent, reason);
    } catch {
      // Not open yet or already closing: nothing more to do with it.
    }
    this.closed(STREAM_CLOSE.silent, reason);
  }

  private closed(code: number, reason: string): void {
    if (this.stopped) return;
    if (code === STREAM_CLOSE.unauthorized || code === STREAM_CLOSE.forbidden) {
      this.stop();
      this.on.error(new SessionError('unauthorized', `The event stream refused the chat auth token (${code}${reason ? ` ${reason}` : ''})`, code));
      return;
    }
    if (code === STREAM_CLOSE.sessionGone) {
      this.stop();
      this.on.sessionGone();
      return;
    }
    if (this.attempt >= this.options.backoff.maxAttempts) {
      this.stop();
      this.on.error(new SessionError('gaveUp', `The event stream gave up after ${this.attempt} reconnects`, code));
      return;
    }
    const delay = backoffDelay(this.attempt, this.options.backoff);
    this.attempt += 1;
    this.on.state('reconnecting');
    this.timer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, delay);
  }

  private stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    this.on.state('closed');
  }

  private send(socket: WebSocketLike, frame: ClientFrame): void {
    if (socket.readyState !== WS_OPEN) return;
    try {
      socket.send(JSON.stringify(frame));
    } catch {
      // The socket is closing; the server redelivers what was not acked.
    }
  }
}
