import { IsDefined, IsInt, Max, Min, ValidateIf } from 'class-validator';

/** Bounds of a bot's trigger quota (triggers per minute). */
export const TRIGGER_QUOTA_MIN = 1;
export const TRIGGER_QUOTA_MAX = 10_000_000;

/** Body of PUT /v1/bots/:botId/trigger-quota: a number of triggers per minute, or null for the platform default. */
export class SetTriggerQuotaDto {
  @ValidateIf((o: SetTriggerQuotaDto) => o.perMinute !== null)
  @IsDefined({ message: '$property is required (a number of triggers per minute, or null for the platform default)' })
  @Max(TRIGGER_QUOTA_MAX, { message: `$property must be at most ${TRIGGER_QUOTA_MAX}` })
  @Min(TRIGGER_QUOTA_MIN, { message: `$property must be at least ${TRIGGER_QUOTA_MIN}` })
  @IsInt({ message: '$property must be an integer or null' })
  perMinute: number | null;
}

/** A bot's trigger quota: what applies (`perMinute`) and whether it is the platform default. */
export interface TriggerQuotaView {
  botId: string;
  perMinute: number;
  isDefault: boolean;
}
