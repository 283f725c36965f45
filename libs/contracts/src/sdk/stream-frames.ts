/** The bot's event as it travels to the app (what app.sendEvent was given). */
export interface WireBotEvent {
  code: string;
  data: { code: string; data: string };
}

/** Server → client frames of the session event stream (see libs/sdk-core/src/session/protocol.ts). */
export type StreamServerFrame = { type: 'ready' } | { type: 'event'; id: string; event: WireBotEvent };

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
} as const;
