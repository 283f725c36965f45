import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Body of PUT /v1/bots/:botId/postback (bot administrators). */
export class SetPostbackDto {
  @IsDefined({ message: '$property is required' })
  @MaxLength(2048, { message: '$property must be at most 2048 characters' })
  @IsString({ message: '$property must be a string' })
  url: string;
}

/** Query of GET /v1/bots/:botId/postbacks. */
export class PostbackLogQueryDto {
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

export interface PostbackView {
  url: string | null;
  /** Whether the bot has a signing secret (the webhook secret); postbacks are not sent without one. */
  secretSet: boolean;
}

/** One delivery log entry. */
export interface PostbackLogEntry {
  id: string;
  messageId: string;
  status: string;
  url: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}
