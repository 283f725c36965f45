import { IsDefined, IsInt, Max, Min, ValidateIf } from 'class-validator';

/**
 * Bounds of a bot's FCM quota (messages a minute for its Firebase project), the same as
 * PUSH_FCM_QUOTA_PER_MINUTE's: below 60 a minute the per-second share the pacer hands out would be 0.
 */
export const FCM_QUOTA_MIN = 60;
export const FCM_QUOTA_MAX = 1_000_000_000;

/** Body of PUT /v1/bots/:botId/push/quota: FCM messages a minute for the bot's project, or null for the platform default. */
export class SetFcmQuotaDto {
  @ValidateIf((o: SetFcmQuotaDto) => o.perMinute !== null)
  @IsDefined({ message: '$property is required (FCM messages a minute for the Firebase project, or null for the platform default)' })
  @Max(FCM_QUOTA_MAX, { message: `$property must be at most ${FCM_QUOTA_MAX}` })
  @Min(FCM_QUOTA_MIN, { message: `$property must be at least ${FCM_QUOTA_MIN} (FCM messages a minute)` })
  @IsInt({ message: '$property must be an integer or null' })
  perMinute: number | null;
}

/** A bot's FCM quota: what every push service applies (`perMinute`) and whether it is the platform default (PUSH_FCM_QUOTA_PER_MINUTE). */
export interface FcmQuotaView {
  botId: string;
  projectId: string;
  perMinute: number;
  isDefault: boolean;
}
