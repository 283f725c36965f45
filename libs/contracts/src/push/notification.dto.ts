import { ArrayMaxSize, ArrayMinSize, Equals, IsArray, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PartialType, PickType } from '@nestjs/swagger';

export const PUSH_PRIORITIES = ['normal', 'high'] as const;
export type PushPriorityName = (typeof PUSH_PRIORITIES)[number];

/** FCM keeps an undelivered message at most 28 days. */
export const FCM_MAX_TTL_SECONDS = 28 * 24 * 3600;
export const MAX_TARGET_USER_IDS = 10_000;

/** Body of POST /v1/bots/:botId/notifications: `userIds` or `all: true` (exactly one), content, delivery options. */
export class SendNotificationDto {
  @IsOptional()
  @IsArray({ message: '$property must be an array of user ids' })
  @ArrayMinSize(1, { message: '$property must name at least 1 user' })
  @ArrayMaxSize(MAX_TARGET_USER_IDS, { message: `$property must name at most ${MAX_TARGET_USER_IDS} users` })
  @IsString({ each: true, message: '$property must be an array of strings' })
  @Matches(/\S/, { each: true, message: '$property must not contain empty user ids' })
  userIds?: string[];

  @IsOptional()
  @Equals(true, { message: '$property must be true when given (send to every device of the bot)' })
  all?: boolean;

  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @Matches(/\S/, { message: '$property must not be empty' })
  @MaxLength(1000, { message: '$property must be at most 1000 characters' })
  title: string;

  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @MaxLength(4000, { message: '$property must be at most 4000 characters' })
  body: string;

  /** Copied into the notification data; the SDK hands it to the bot as payload.JourneySlug. */
  @IsOptional()
  @IsString({ message: '$property must be a string' })
  @Matches(/\S/, { message: '$property must not be empty when given' })
  @MaxLength(256, { message: '$property must be at most 256 characters' })
  journeySlug?: string;

  /** Extra FCM data; values must be strings, keys must not be reserved (checked by fcmPayloadProblem). */
  @IsOptional()
  @IsObject({ message: '$property must be an object of string values' })
  data?: Record<string, string>;

  @IsOptional()
  @IsInt({ message: '$property must be an integer number of seconds' })
  @Min(0, { message: '$property must be at least 0' })
  @Max(FCM_MAX_TTL_SECONDS, { message: `$property must be at most ${FCM_MAX_TTL_SECONDS} (28 days)` })
  ttlSeconds?: number;

  @IsOptional()
  @IsIn(PUSH_PRIORITIES, { message: `$property must be one of: ${PUSH_PRIORITIES.join(', ')}` })
  priority?: PushPriorityName;
}

/** 202 answer: the notification is durably queued. */
export interface SendNotificationResponse {
  message: string;
  status: 'success';
  notificationId: string;
}

export type PushNotificationStatusName = 'queued' | 'sending' | 'completed' | 'failed';

/** GET /v1/bots/:botId/notifications/:id. total = sent + failed + invalidTokens + skipped + pending. */
export interface NotificationStatusResponse {
  notificationId: string;
  botId: string;
  status: PushNotificationStatusName;
  /** Why the whole notification failed (e.g. the service account was rejected), for an administrator. */
  failureReason: string | null;
  total: number;
  sent: number;
  failed: number;
  invalidTokens: number;
  /** Devices unlinked or found dead after the notification was planned. */
  skipped: number;
  pending: number;
  createdAt: string;
  completedAt: string | null;
}

export interface NotificationStatusMessage {
  notificationId: string;
}

/**
 * Body of POST /v1/bots/:botId/notifications/test: one message to one token, now. Its content fields
 * are the send's, with the send's rules, all optional.
 */
export class TestNotificationDto extends PartialType(PickType(SendNotificationDto, ['title', 'body', 'journeySlug', 'data'] as const)) {
  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @Matches(/\S/, { message: '$property must not be empty or blank' })
  @MaxLength(4096, { message: '$property must be at most 4096 characters' })
  token: string;
}

/** FCM's answer to the test message, unchanged. */
export interface TestNotificationResponse {
  message: string;
  status: 'success';
  /** true when FCM accepted the message (HTTP 200). */
  accepted: boolean;
  fcm: { httpStatus: number; body: unknown };
}

/** The target rule the decorators cannot express: exactly one of userIds and all: true. */
export function notificationTargetProblem(dto: Pick<SendNotificationDto, 'userIds' | 'all'>): string | null {
  if (dto.all === true && dto.userIds) return 'give either userIds or all: true, not both';
  if (dto.all !== true && !dto.userIds) return 'a target is required: userIds (array of user ids) or all: true';
  return null;
}
