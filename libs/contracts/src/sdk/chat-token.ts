import { createHash } from 'node:crypto';

/** The chat auth token (SDK config `ymAuthenticationToken`): 1-40 of A-Z a-z 0-9 _ - (spec, Mobile SDK values). */
export const CHAT_TOKEN_MAX_LENGTH = 40;
export const CHAT_TOKEN_CHARSET = /^[A-Za-z0-9_-]+$/;

/** An app user's id as bots see it: the lowercase hex SHA-256 of the user's chat auth token. */
export const CHAT_USER_ID_PATTERN = /^[0-9a-f]{64}$/;

export function isChatToken(value: unknown): value is string {
  return typeof value === 'string' && value.length <= CHAT_TOKEN_MAX_LENGTH && CHAT_TOKEN_CHARSET.test(value);
}

/** The user id bots address events to; the platform stores only this, never the token. */
export function chatUserId(chatToken: string): string {
  return createHash('sha256').update(chatToken, 'utf8').digest('hex');
}
