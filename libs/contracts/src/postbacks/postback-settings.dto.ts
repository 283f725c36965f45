import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { RequiredString } from '../common/string-fields.js';

/** Body of PUT /v1/bots/:botId/postback (bot administrators). */
export class SetPostbackDto {
  @RequiredString({ max: 2048 })
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
