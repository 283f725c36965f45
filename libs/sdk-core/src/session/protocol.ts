// Wire protocol between the SDK and the platform's gateway. The server implements these shapes;
// docs/sdk.md describes them. All bodies are JSON (Content-Type: application/json).
import type { JsonObject } from '../json/json-types';

/** POST {apiBaseUrl}/v1/bots/{botId}/sessions — no Authorization header; the chat auth token is in the body. */
export interface StartSessionRequest {
  /** The chat auth token (config `ymAuthenticationToken`). */
  authToken: string;
  /** The config payload as an object; the server hands it to the bot as a JSON string. */
  payload: JsonObject;
  version: number;
  deviceToken?: string;
}

/** 201 (or 200) answer to StartSessionRequest. */
export interface StartSessionResponse {
  sessionId: string;
  /** Absolute ws:// or wss:// address of the session's event stream (wss:// when the API is https). */
  streamUrl: string;
}

/** POST {apiBaseUrl}/v1/bots/{botId}/sessions/{sessionId}/events with Authorization: Bearer <chat auth token>. Answer 202 or 204. */
export interface AppEventRequest {
  code: string;
  data: JsonObject;
}

export type DevicePlatform = 'android' | 'ios' | 'web';
export const DEVICE_PLATFORMS: readonly DevicePlatform[] = ['android', 'ios', 'web'];

/**
 * POST {apiBaseUrl}/v1/bots/{botId}/devices with Authorization: Bearer <API key or chat auth token>. Answer 200/201/204.
 * userId: required with an API key; with a chat auth token omitted (the device is the token's chat user's).
 */
export interface RegisterDeviceRequest {
  userId?: string;
  /** Push-provider device token; never empty or blank. */
  token: string;
  platform: DevicePlatform;
}
// DELETE {apiBaseUrl}/v1/bots/{botId}/devices/{token} (token URL-encoded), same Authorization. Answer 200/204 (404 is an HttpError).

/** The bot's inner event as written in `app.sendEvent({ code: 'send<Platform>Event', data: { code, data } })`. */
export interface WireBotEvent {
  /** Platform-specific send-event identifier, `send<Platform>Event`, e.g. `sendReactNativeEvent`. */
  code: string;
  data: {
    /** Event name, e.g. `logout`. */
    code: string;
    /** A JSON-encoded object, e.g. `"{\"actionType\":\"button\"}"`. */
    data: string;
  };
}

// --- Stream frames (WebSocket text frames holding JSON) ---

/** Client → server, the first frame after the socket opens. The server closes with 4401 if it is missing or wrong. */
export interface AuthFrame {
  type: 'auth';
  token: string;
}

/** Client → server after an event was handed to the app (or found malformed): the server may drop it. */
export interface AckFrame {
  type: 'ack';
  id: string;
}

export type ClientFrame = AuthFrame | AckFrame;

/**
 * Server → client after a good AuthFrame. Unacked events are (re)sent after it, oldest first.
 * `heartbeatMs`: the interval of the server's heartbeat frames (absent from older servers).
 */
export interface ReadyFrame {
  type: 'ready';
  heartbeatMs?: number;
}

/**
 * Server → client every `heartbeatMs` while the stream is open. WebSocket pings are invisible to
 * browser and React Native apps; this frame lets the client notice a path that went silent.
 */
export interface HeartbeatFrame {
  type: 'heartbeat';
}

/** Server → client: one bot event. `id` is unique within the session; redelivery reuses it. */
export interface EventFrame {
  type: 'event';
  id: string;
  event: WireBotEvent;
}

/** Frames of any other `type` are ignored by this client version. */
export type ServerFrame = ReadyFrame | HeartbeatFrame | EventFrame;

/** WebSocket close codes with a meaning in this protocol; any other close makes the client reconnect. */
export const STREAM_CLOSE = {
  /** Closed by the app (closeBot). */
  normal: 1000,
  /** Missing or wrong auth frame: the client stops. */
  unauthorized: 4401,
  /** Token valid but not for this session: the client stops. */
  forbidden: 4403,
  /** Session unknown or expired: the client starts a new session. */
  sessionGone: 4404,
  /** Sent by the client when it drops a silent connection (no `ready` or no frame in time); it then reconnects. */
  silent: 4408,
} as const;

export function sessionsPath(botId: string): string {
  return `/v1/bots/${encodeURIComponent(botId)}/sessions`;
}

export function sessionEventsPath(botId: string, sessionId: string): string {
  return `${sessionsPath(botId)}/${encodeURIComponent(sessionId)}/events`;
}

export function devicesPath(botId: string, token?: string): string {
  const base = `/v1/bots/${encodeURIComponent(botId)}/devices`;
  return token === undefined ? base : `${base}/${encodeURIComponent(token)}`;
}
