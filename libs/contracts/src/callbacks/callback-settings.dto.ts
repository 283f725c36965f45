import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { RequiredString } from '../common/string-fields.js';
import { CALLBACK_KINDS, type CallbackKind } from './callback.job.js';

/** Body of PUT /v1/bots/:botId/postback (bot administrators). */
export class SetPostbackDto {
  @RequiredString({ max: 2048 })
  url: string;
}

/** Body of POST /v1/bots/:botId/callbacks/secret/rotate. */
export class RotateCallbackSecretDto {
  /** How long the previous secret keeps signing; default CALLBACK_SECRET_ROTATION_HOURS. */
  @IsOptional()
  @Max(720, { message: '$property must be at most 720' })
  @Min(1, { message: '$property must be at least 1' })
  @IsInt({ message: '$property must be an integer' })
  previousValidHours?: number;
}

/** Query of GET /v1/bots/:botId/postbacks: a page of the delivery log, newest first. */
export class CallbackLogPageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @Min(1, { message: '$property must be at least 1' })
  @IsInt({ message: '$property must be an integer' })
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @Max(100, { message: '$property must be at most 100' })
  @Min(1, { message: '$property must be at least 1' })
  @IsInt({ message: '$property must be an integer' })
  pageSize?: number;
}

/** Query of GET /v1/bots/:botId/callbacks/deliveries: a page of one kind of delivery, or of both. */
export class CallbackLogQueryDto extends CallbackLogPageQueryDto {
  @IsOptional()
  @IsIn(CALLBACK_KINDS, { message: `$property must be one of ${CALLBACK_KINDS.join(', ')}` })
  kind?: CallbackKind;
}

/** One endpoint in the settings answer. */
export interface CallbackEndpointView {
  url: string;
  /** First failed attempt since the last 2xx; null while it answers. */
  failingSince: string | null;
  /** When it was disabled for failing CALLBACK_DISABLE_AFTER_HOURS; setting the URL again enables it. */
  disabledAt: string | null;
  disabledReason: string | null;
}

/** GET /v1/bots/:botId/callbacks. */
export interface CallbackSettingsView {
  webhook: CallbackEndpointView | null;
  postback: CallbackEndpointView | null;
  secretSet: boolean;
  /** During a rotation: until when the previous secret also signs; null otherwise. */
  previousSecretValidUntil: string | null;
}

/** One delivery log entry (both kinds). */
export interface CallbackLogEntry {
  id: string;
  kind: string;
  event: string;
  messageId: string | null;
  status: string | null;
  url: string;
  attempts: number;
  replays: number;
  duplicates: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}
