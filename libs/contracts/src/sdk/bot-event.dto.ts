import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CHAT_USER_ID_PATTERN } from './chat-token.js';
import { IsJsonObjectString } from './json-object-string.js';
import { RequiredString } from '../common/string-fields.js';

/** `send<Platform>Event`, e.g. sendReactNativeEvent (spec, Events §1). */
export const PLATFORM_EVENT_CODE = /^send[A-Z][A-Za-z]*Event$/;
export const MAX_EVENT_DATA_LENGTH = 16_384;

/** The inner object of app.sendEvent: the event name and its data as a JSON string (spec, Events §2). */
export class BotEventDataDto {
  @RequiredString({ max: 100, refuse: 'blank' })
  code: string;

  @IsDefined({ message: '$property is required' })
  @IsJsonObjectString({ message: '$property must be a string holding a JSON object, e.g. "{\\"actionType\\":\\"button\\"}"' })
  @MaxLength(MAX_EVENT_DATA_LENGTH, { message: `$property must be at most ${MAX_EVENT_DATA_LENGTH} characters` })
  @IsString({ message: '$property must be a string holding a JSON object (JSON.stringify it)' })
  data: string;
}

/** What the bot passes to app.sendEvent. */
export class BotEventDto {
  @RequiredString({
    pattern: { regex: PLATFORM_EVENT_CODE, message: '$property must be a send<Platform>Event identifier, e.g. sendReactNativeEvent' },
    max: 64,
  })
  code: string;

  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object { code, data }' })
  @ValidateNested()
  @Type(() => BotEventDataDto)
  data: BotEventDataDto;
}

/** Body of POST /v1/bots/:botId/events (API key of the bot). */
export class SendBotEventDto {
  @RequiredString({
    pattern: { regex: CHAT_USER_ID_PATTERN, message: "$property must be the app user's id: the lowercase hex SHA-256 of their chat auth token" },
  })
  userId: string;

  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object { code, data }' })
  @ValidateNested()
  @Type(() => BotEventDto)
  event: BotEventDto;
}

export interface SendBotEventResponse {
  message: string;
  status: 'success';
  /** Stream id of the event (the `id` of its stream frame). */
  eventId: string;
  /** Live stream connections of the user when the event was stored (it is kept until acked either way). */
  delivered: number;
}
