/** The bot's event as it travels to the app (what app.sendEvent was given). */
export interface WireBotEvent {
  code: string;
  data: { code: string; data: string };
}

/**
 * Sent once after a good auth frame. `heartbeatMs` is the interval of the heartbeat frames that follow,
 * so that a client can tell a silent, dead network path from a quiet stream.
 */
export interface StreamReadyFrame {
  type: 'ready';
  heartbeatMs: number;
}

/**
 * Sent every `heartbeatMs` while the stream is open. It exists because WebSocket ping control frames
 * are invisible to the browser and React Native WebSocket APIs: this is a frame the app's client sees.
 */
export interface StreamHeartbeatFrame {
  type: 'heartbeat';
}

export interface StreamEventFrame {
  type: 'event';
  id: string;
  event: WireBotEvent;
}

/**
 * Server → client frames of the session event stream (see libs/sdk-core/src/session/protocol.ts).
 * Clients ignore frame types they do not know, so new types can be added without breaking them.
 */
export type StreamServerFrame = StreamReadyFrame | StreamHeartbeatFrame | StreamEventFrame;

/** A client that hears nothing (no frame of any type) for this many heartbeat intervals treats the path as dead. */
export const STREAM_SILENCE_FACTOR = 2.5;

/** WebSocket close codes of the event stream and what the SDK does on each. */
export const STREAM_CLOSE = {
  /** The server is shutting down: the client reconnects (to another replica). */
  goingAway: 1001,
  /** Missing, malformed, wrong or late auth frame: the client stops. */
  unauthorized: 4401,
  /** Reserved by the protocol (token valid, not for this session); this server sends 4401 instead. */
  forbidden: 4403,
  /** Unknown or expired session: the client starts a new one. */
  sessionGone: 4404,
  /** Sent by a client that gave up on a silent connection (no ready or heartbeat in time) before it reconnects. */
  silent: 4408,
} as const;
