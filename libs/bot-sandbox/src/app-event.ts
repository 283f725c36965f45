import type { BotAppEvent } from '@platform/contracts';
import { MAX_EVENT_DATA_LENGTH, PLATFORM_EVENT_CODE } from '@platform/contracts';

/**
 * What the sandbox's app.sendEvent hands over: the event's fields as the code gave them, with their types,
 * taken apart inside the sandbox (sandbox-prelude.ts). Nothing in it is trusted: the code can bend the
 * sandbox's own built-ins, so this side checks every field again.
 */
export interface AppEventSnapshot {
  eventType: string;
  code?: unknown;
  codeType: string;
  dataType: string;
  dataCode?: unknown;
  dataCodeType: string;
  dataData?: unknown;
  dataDataType: string;
}

export type AppEventCheck = { ok: true; event: BotAppEvent } | { ok: false; problem: string };

/** The rules of POST /v1/bots/{botId}/events (libs/contracts/src/sdk/bot-event.dto.ts), worded for bot code. */
export function checkAppEvent(snapshot: unknown): AppEventCheck {
  const fail = (problem: string): AppEventCheck => ({ ok: false, problem: `app.sendEvent: ${problem}` });
  if (typeof snapshot !== 'object' || snapshot === null) return fail('the event must be an object { code, data }');
  const s = snapshot as Partial<AppEventSnapshot>;
  if (s.eventType !== 'object') return fail(`the event must be an object { code, data }, got ${String(s.eventType)}`);
  if (s.codeType === 'undefined') return fail('code is required');
  if (typeof s.code !== 'string') return fail('code must be a string');
  if (s.code.length > 64) return fail('code must be at most 64 characters');
  if (!PLATFORM_EVENT_CODE.test(s.code)) return fail('code must be a send<Platform>Event identifier, e.g. sendReactNativeEvent');
  if (s.dataType === 'undefined') return fail('data is required');
  if (s.dataType !== 'object') return fail('data must be an object { code, data }');
  if (s.dataCodeType === 'undefined') return fail('data.code is required');
  if (typeof s.dataCode !== 'string') return fail('data.code must be a string');
  if (s.dataCode.length > 100) return fail('data.code must be at most 100 characters');
  if (!/\S/.test(s.dataCode)) return fail('data.code must not be empty or blank');
  if (s.dataDataType === 'undefined') return fail('data.data is required');
  if (typeof s.dataData !== 'string') return fail('data.data must be a string holding a JSON object, or a plain object');
  if (s.dataData.length > MAX_EVENT_DATA_LENGTH) return fail(`data.data must be at most ${MAX_EVENT_DATA_LENGTH} characters of JSON`);
  if (!isJsonObjectText(s.dataData)) return fail('data.data must be a string holding a JSON object, e.g. "{\\"actionType\\":\\"button\\"}"');
  return { ok: true, event: { code: s.code, data: { code: s.dataCode, data: s.dataData } } };
}

function isJsonObjectText(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
