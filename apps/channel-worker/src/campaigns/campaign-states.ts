import { Injectable } from '@nestjs/common';
import type { CampaignStatusName } from '@platform/contracts';
import { CampaignRepository } from '@platform/database';

/** How long a campaign's status is trusted: a pause reaches every worker within this. */
const TTL_MS = 1000;

/**
 * Campaign statuses as the dispatch handler checks them before each campaign message, read at most once
 * a second per campaign and process: one read per campaign rather than one per message.
 */
@Injectable()
export class CampaignStates {
  private readonly cache = new Map<string, { status: CampaignStatusName | null; at: number }>();

  constructor(private readonly campaigns: CampaignRepository) {}

  /** The campaign's status, or null when it no longer exists. */
  async status(campaignId: string): Promise<CampaignStatusName | null> {
    const hit = this.cache.get(campaignId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.status;
    const status = (await this.campaigns.byId(campaignId))?.status ?? null;
    this.cache.set(campaignId, { status, at: Date.now() });
    if (this.cache.size > 1000) this.cache.delete(this.cache.keys().next().value!);
    return status;
  }

  /** A queued recipient of a cancelled campaign whose message was never claimed: not sent. */
  cancelUnsent(messageId: string): Promise<void> {
    return this.campaigns.cancelUnsent(messageId);
  }
}
