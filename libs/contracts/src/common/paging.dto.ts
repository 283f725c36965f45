import { IsISO8601, IsOptional, Matches, MaxLength } from 'class-validator';

/** A list query's `limit`: a whole number from 1 to 100, given as a query string. */
export function PageLimit(): PropertyDecorator {
  const optional = IsOptional();
  const range = Matches(/^(?:[1-9]|[1-9]\d|100)$/, { message: '$property must be an integer from 1 to 100' });
  return (target, key) => {
    range(target, key);
    optional(target, key);
  };
}

/** The paging of a list read newest first: `cursor`, the previous answer's `nextCursor` (opaque), and `limit`. */
export class PageQueryDto {
  @IsOptional()
  @MaxLength(200, { message: '$property must be at most 200 characters' })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: '$property must be a cursor from a previous answer' })
  cursor?: string;

  @PageLimit()
  limit?: string;
}

/** Paging of a list filtered by time: entries from `since` and before `until` (ISO 8601 date-times). */
export class TimeRangePageQueryDto extends PageQueryDto {
  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time' })
  since?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time' })
  until?: string;
}
