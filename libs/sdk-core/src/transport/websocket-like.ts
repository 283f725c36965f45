// Handlers are typed through a method so that the parameter check is bivariant: the DOM/React Native
// WebSocket and the `ws` package's class both fit without casts.
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** The part of a WebSocket the SDK uses. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
  onclose: Handler<{ code: number; reason: string }> | null;
  onerror: Handler<unknown> | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket constructor: the global `WebSocket`, or `WebSocket` from the `ws` package in Node. */
export type WebSocketConstructorLike = new (url: string) => WebSocketLike;

export const WS_OPEN = 1;
