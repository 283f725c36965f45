import type { WebSocketLike } from '../transport/websocket-like';

/**
 * A WebSocket driven by hand: the test decides when it opens, what arrives and whether it ever
 * closes. A black-holed network path is a socket that is open and never hears anything again.
 */
export class FakeWebSocket implements WebSocketLike {
  static sockets: FakeWebSocket[] = [];
  readyState = 0;
  readonly sent: Array<Record<string, unknown>> = [];
  closeCalls: Array<{ code?: number; reason?: string }> = [];
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;

  constructor(readonly url: string) {
    FakeWebSocket.sockets.push(this);
  }

  static reset(): void {
    FakeWebSocket.sockets = [];
  }

  static get last(): FakeWebSocket {
    const socket = FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1];
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  /** Records the call only: on a dead path the close handshake never completes, so no close event. */
  close(code?: number, reason?: string): void {
    this.closeCalls.push({ code, reason });
    if (this.readyState === 1) this.readyState = 2;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(frame: object | string): void {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }

  /** The peer closed (or the network stack noticed the loss). */
  closedByPeer(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}
