import { InvalidPayloadError } from '../errors';

/**
 * For bot code (a v2 bot's function node): the SDK payload always arrives as a JSON string. Parses a
 * string as JSON and passes an object through; anything that is not a JSON object is refused.
 */
export function parseBotPayload<T extends object = Record<string, unknown>>(value: unknown): T {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      const detail = error instanceof Error ? `: ${error.message}` : '';
      throw new InvalidPayloadError('invalidJson', `The bot payload is not valid JSON${detail}`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new InvalidPayloadError('notObject', `The bot payload must be a JSON object, got ${kind}`);
  }
  return parsed as T;
}
