import { IsArray, IsBoolean, IsInt, IsNumber, IsObject, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { PHONE_NUMBER } from '../carousel/trigger-carousel.dto.js';
import { RequiredString } from '../common/string-fields.js';
import type { CampaignMapping, CampaignSchedule } from './campaign.views.js';

export type * from './campaign.views.js';

/** Body of POST /v1/bots/:botId/campaigns. */
export class CreateCampaignDto {
  @RequiredString({ max: 200, refuse: 'blank' })
  name: string;

  @IsUUID('all', { message: '$property must be the id of a carousel template of this bot' })
  templateId: string;

  @RequiredString({ pattern: { regex: PHONE_NUMBER, message: '$property must be a sender number of this bot, with country code' } })
  sender: string;

  @IsObject({ message: '$property must be an object (docs/campaigns.md#mapping)' })
  mapping: CampaignMapping;

  @IsOptional()
  @IsObject({ message: '$property must be an object with startAt, timeZone, quietHours' })
  schedule?: CampaignSchedule;

  /** At most this many campaign messages per user in 24 h, all of the bot's campaigns together. */
  @IsOptional()
  @Max(1000, { message: '$property must be an integer from 1 to 1000 (messages per user in 24 h)' })
  @Min(1, { message: '$property must be an integer from 1 to 1000 (messages per user in 24 h)' })
  @IsInt({ message: '$property must be an integer from 1 to 1000 (messages per user in 24 h)' })
  frequencyCap?: number;

  /** A transactional campaign (order updates, say) is not held back by the frequency cap and does not count towards it. */
  @IsOptional()
  @IsBoolean({ message: '$property must be true or false' })
  transactional?: boolean;

  /**
   * The share of the sender's throughput the campaign may use (0.05-0.9, default 0.8); triggers keep the
   * rest: at least a tenth of every second's sends is never a campaign's.
   */
  @IsOptional()
  @Max(0.9, { message: '$property must be a number from 0.05 to 0.9' })
  @Min(0.05, { message: '$property must be a number from 0.05 to 0.9' })
  @IsNumber({}, { message: '$property must be a number from 0.05 to 0.9' })
  sendShare?: number;

  @IsOptional()
  @Max(30 * 24 * 3600, { message: '$property must be an integer from 60 to 2592000 (seconds)' })
  @Min(60, { message: '$property must be an integer from 60 to 2592000 (seconds)' })
  @IsInt({ message: '$property must be an integer from 60 to 2592000 (seconds)' })
  validitySeconds?: number;
}

/** Body of PUT /v1/bots/:botId/campaigns/:campaignId/audience (application/json): a list, or a segment of the bot's WhatsApp users. */
export class CampaignAudienceDto {
  /** Rows as objects of column → value (at most 10,000 per request; larger audiences: CSV). */
  @IsOptional()
  @IsArray({ message: '$property must be an array of objects (column → value)' })
  rows?: Array<Record<string, unknown>>;

  /** The bot's recorded WhatsApp users: columns `number` and `lastInboundAt`. */
  @IsOptional()
  @IsObject({ message: '$property must be an object ({ activeWithinDays? })' })
  segment?: { activeWithinDays?: number };
}

/** Body of POST .../campaigns/:campaignId/start. */
export class StartCampaignDto {
  /** Start even though the audience has invalid rows (they are skipped). */
  @IsOptional()
  @IsBoolean({ message: '$property must be true or false' })
  skipInvalid?: boolean;

  /**
   * Start even though the sender's 24-hour messaging limit (Meta's tier) would be passed: without it such a
   * start answers 409 with the check (docs/campaigns.md, "Messaging limits").
   */
  @IsOptional()
  @IsBoolean({ message: '$property must be true or false' })
  acknowledgeTierLimit?: boolean;
}
