import { EventDecodeError } from '../errors';
import { isRecord } from '../json/check-json';
import type { BotEvent } from './bot-event';
import { decodeBotEvent } from './decode-event';

export type DecodedFrame =
  /** `heartbeatMs` only when the server announced a usable interval. */
  | { kind: 'ready'; heartbeatMs?: number }
  | { kind: 'heartbeat' }
  | { kind: 'event'; id: string; event: BotEvent; platformCode: string }
  /** A frame type this client does not know; skipped for forward compatibility. */
  | { kind: 'ignored'; type: string }
  /** `id` is set when the frame carried a usable id, so that it can still be acked. */
  | { kind: 'malformed'; id?: string; error: EventDecodeError };

/** Decodes one WebSocket message (`MessageEvent.data`). Never throws. */
export function decodeServerFrame(raw: unknown): DecodedFrame {
  if (typeof raw !== 'string') return malformed('binaryFrame', 'stream frames must be text');
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return malformed('notJson', 'stream frame is not valid JSON');
  }
  if (!isRecord(frame)) return malformed('notObject', 'stream frame must be a JSON object');
  if (typeof frame.type !== 'string') return malformed('missingType', 'stream frame has no type');
  if (frame.type === 'ready') return readyFrame(frame.heartbeatMs);
  if (frame.type === 'heartbeat') return { kind: 'heartbeat' };
  if (frame.type !== 'event') return { kind: 'ignored', type: frame.type };
  if (typeof frame.id !== 'string' || frame.id === '') return malformed('missingId', 'event frame has no string id');
  const decoded = decodeBotEvent(frame.event, frame.id);
  if (!decoded.ok) return { kind: 'malformed', id: frame.id, error: decoded.error };
  return { kind: 'event', id: frame.id, event: decoded.event, platformCode: decoded.platformCode };
}

function readyFrame(heartbeatMs: unknown): DecodedFrame {
  // An unusable interval is left out rather than refused: the client then assumes its default.
  if (typeof heartbeatMs === 'number' && Number.isFinite(heartbeatMs) && heartbeatMs > 0) return { kind: 'ready', heartbeatMs };
  return { kind: 'ready' };
}

function malformed(reason: EventDecodeError['reason'], message: string): DecodedFrame {
  return { kind: 'malformed', error: new EventDecodeError(reason, message) };
}
