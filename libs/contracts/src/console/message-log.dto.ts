import { IsIn, IsISO8601, IsOptional, Matches, MaxLength } from 'class-validator';
import { MESSAGE_STATUSES } from './message-log.views.js';

/** Query of GET /v1/bots/:botId/messages (every field optional). */
export class MessageLogQueryDto {
  @IsOptional()
  @IsIn(MESSAGE_STATUSES, { message: `$property must be one of ${MESSAGE_STATUSES.join(', ')}` })
  status?: string;

  @IsOptional()
  @Matches(/^\+?\d{1,15}$/, { message: '$property must be a phone number or its first digits (up to 15 digits, optional +)' })
  recipient?: string;

  /** A message id: the platform's (msgId) or WhatsApp's (wamid.…), matched exactly. */
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F-]{36}|wamid\.[A-Za-z0-9_=+/.-]{1,200})$/, { message: '$property must be a message id (the msgId of a trigger, or a wamid.… of WhatsApp)' })
  id?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time' })
  since?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time' })
  until?: string;

  @IsOptional()
  @MaxLength(200, { message: '$property must be at most 200 characters' })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: '$property must be a cursor from a previous answer' })
  cursor?: string;

  @IsOptional()
  @Matches(/^(?:[1-9]|[1-9]\d|100)$/, { message: '$property must be an integer from 1 to 100' })
  limit?: string;
}
