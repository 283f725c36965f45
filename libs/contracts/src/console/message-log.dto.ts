import { IsIn, IsOptional, Matches } from 'class-validator';
import { TimeRangePageQueryDto } from '../common/paging.dto.js';
import { MESSAGE_STATUSES } from './message-log.views.js';

/** Query of GET /v1/bots/:botId/messages (every field optional). */
export class MessageLogQueryDto extends TimeRangePageQueryDto {
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
}
