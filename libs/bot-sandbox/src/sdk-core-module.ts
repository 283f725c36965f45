/** The one module bot code may import. */
export const SDK_CORE_MODULE_NAME = '@bot-platform/sdk-core';

/**
 * The sandbox's `@bot-platform/sdk-core`: only the bot-side helper. `parseBotPayload` and its errors behave
 * like libs/sdk-core/src/bot-helpers/parse-bot-payload.ts (same reasons and messages); that file cannot be
 * loaded as is (TypeScript, and the rest of the SDK needs fetch and WebSocket), so keep the two in step
 * (quickjs-function-runner.spec.ts compares them).
 */
export const SDK_CORE_MODULE_SOURCE = `
export class SdkError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SdkError';
  }
}

export class InvalidPayloadError extends SdkError {
  constructor(reason, message) {
    super(message);
    this.name = 'InvalidPayloadError';
    this.reason = reason;
  }
}

export function parseBotPayload(value) {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      const detail = error instanceof Error ? ': ' + error.message : '';
      throw new InvalidPayloadError('invalidJson', 'The bot payload is not valid JSON' + detail);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new InvalidPayloadError('notObject', 'The bot payload must be a JSON object, got ' + kind);
  }
  return parsed;
}
`;
