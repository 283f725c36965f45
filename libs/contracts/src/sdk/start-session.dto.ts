import { IsDefined, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CHAT_TOKEN_CHARSET, CHAT_TOKEN_MAX_LENGTH } from './chat-token.js';
import { MaxJsonBytes, SDK_PAYLOAD_MAX_BYTES } from './json-size.js';
import { OptionalString } from '../common/string-fields.js';

const TOKEN_RULE = `$property must be 1-${CHAT_TOKEN_MAX_LENGTH} characters of A-Z a-z 0-9 _ -`;

/** Body of POST /v1/bots/:botId/sessions (the SDK's StartSessionRequest); no Authorization header. */
export class StartSessionDto {
  @IsDefined({ message: '$property is required' })
  @Matches(CHAT_TOKEN_CHARSET, { message: TOKEN_RULE })
  @MaxLength(CHAT_TOKEN_MAX_LENGTH, { message: TOKEN_RULE })
  @IsString({ message: '$property must be a string' })
  authToken: string;

  /** Any JSON object of at most SDK_PAYLOAD_MAX_BYTES; the bot receives it as a JSON string. */
  @IsDefined({ message: '$property is required' })
  @MaxJsonBytes(SDK_PAYLOAD_MAX_BYTES, { message: `$property must be at most ${SDK_PAYLOAD_MAX_BYTES} bytes as JSON (UTF-8)` })
  @IsObject({ message: '$property must be a JSON object' })
  payload: Record<string, unknown>;

  @IsDefined({ message: '$property is required' })
  @Max(2_147_483_647, { message: '$property must be a positive integer' })
  @Min(1, { message: '$property must be a positive integer' })
  @IsInt({ message: '$property must be a positive integer' })
  version: number;

  @OptionalString({ max: 4096, refuse: 'blank' })
  deviceToken?: string;
}

export interface StartSessionResponse {
  sessionId: string;
  /** Absolute ws:// or wss:// address of the session's event stream. */
  streamUrl: string;
}
