import { IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { MaxJsonBytes, SDK_PAYLOAD_MAX_BYTES } from './json-size.js';

/** Body of POST /v1/bots/:botId/sessions/:sessionId/events (the SDK's AppEventRequest). */
export class AppEventDto {
  @IsDefined({ message: '$property is required' })
  @MaxLength(100, { message: '$property must be at most 100 characters' })
  @Matches(/\S/, { message: '$property must not be empty or blank' })
  @IsString({ message: '$property must be a string' })
  code: string;

  /** A JSON object of at most SDK_PAYLOAD_MAX_BYTES; the bot receives it as a JSON string. */
  @IsOptional()
  @MaxJsonBytes(SDK_PAYLOAD_MAX_BYTES, { message: `$property must be at most ${SDK_PAYLOAD_MAX_BYTES} bytes as JSON (UTF-8)` })
  @IsObject({ message: '$property must be a JSON object' })
  data?: Record<string, unknown>;
}

export interface AppEventResponse {
  message: string;
  status: 'success';
  /** Id of the webhook delivery (also `id` in the body the bot receives). */
  eventId: string;
}
