import { IsObject, IsOptional } from 'class-validator';
import { MaxJsonBytes, SDK_PAYLOAD_MAX_BYTES } from './json-size.js';
import { RequiredString } from '../common/string-fields.js';

/** Body of POST /v1/bots/:botId/sessions/:sessionId/events (the SDK's AppEventRequest). */
export class AppEventDto {
  @RequiredString({ max: 100, refuse: 'blank' })
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
