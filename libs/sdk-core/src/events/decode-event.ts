import { EventDecodeError } from '../errors';
import { isRecord } from '../json/check-json';
import type { BotEvent } from './bot-event';

export const PLATFORM_EVENT_CODE = /^send[A-Z][A-Za-z0-9]*Event$/;

export type DecodedBotEvent = { ok: true; event: BotEvent; platformCode: string } | { ok: false; error: EventDecodeError };

/**
 * Decodes `{ code: 'send<Platform>Event', data: { code, data: '<JSON object string>' } }`.
 * Never throws; a bad event is returned as an EventDecodeError.
 */
export function decodeBotEvent(value: unknown, eventId?: string): DecodedBotEvent {
  const fail = (reason: EventDecodeError['reason'], message: string): DecodedBotEvent => ({
    ok: false,
    error: new EventDecodeError(reason, eventId === undefined ? message : `Event ${eventId}: ${message}`, eventId),
  });
  if (!isRecord(value)) return fail('badEvent', 'the event must be an object { code, data }');
  if (typeof value.code !== 'string' || !PLATFORM_EVENT_CODE.test(value.code)) {
    return fail('badPlatformCode', 'event.code must be a send<Platform>Event identifier');
  }
  const inner = value.data;
  if (!isRecord(inner)) return fail('badEvent', 'event.data must be an object { code, data }');
  if (typeof inner.code !== 'string' || inner.code.trim() === '') return fail('badCode', 'event.data.code must be a non-empty string');
  if (typeof inner.data !== 'string') return fail('dataNotString', 'event.data.data must be a JSON string');
  let data: unknown;
  try {
    data = JSON.parse(inner.data);
  } catch {
    return fail('dataNotJson', 'event.data.data is not valid JSON');
  }
  if (!isRecord(data)) return fail('dataNotObject', 'event.data.data must encode a JSON object');
  return { ok: true, event: { code: inner.code, data }, platformCode: value.code };
}
