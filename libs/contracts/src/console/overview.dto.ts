import { IsOptional, Matches } from 'class-validator';

/** Query of GET /v1/bots/:botId/overview: a range of UTC days (the service checks order and length). */
export class OverviewQueryDto {
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a day as YYYY-MM-DD' })
  from?: string;

  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a day as YYYY-MM-DD' })
  to?: string;
}
