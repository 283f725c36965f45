import { Injectable } from '@nestjs/common';
import { CampaignRepository } from '@platform/database';

/**
 * The IANA zone names the planner's SQL can convert with (Postgres' own list, read once per process):
 * a recipient's zone is checked against it at upload, so a round never fails on a zone Postgres lacks.
 */
@Injectable()
export class TimeZones {
  private names?: Promise<Set<string>>;

  constructor(private readonly campaigns: CampaignRepository) {}

  /** A checker for the known names (loaded on first use). */
  async checker(): Promise<(tz: string) => boolean> {
    this.names ??= this.campaigns.timeZoneNames().then(
      (n) => new Set(n),
      (err: unknown) => {
        this.names = undefined;
        throw err;
      },
    );
    const names = await this.names;
    return (tz) => names.has(tz);
  }
}
