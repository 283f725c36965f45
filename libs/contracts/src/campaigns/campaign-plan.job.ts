/** The queue of campaign planners: one job per running campaign admits its recipients into carousel dispatch. */
export const CampaignQueueNames = {
  campaigns: 'campaigns',
} as const;

/**
 * Job `plan` on CampaignQueueNames.campaigns; the job id is `plan-<campaignId>-<plannerId>`: each start or
 * resume names a new planner, and a planner whose id is no longer the campaign's ends. The job moves itself to the delayed set between
 * rounds and ends when the campaign is no longer running.
 */
export interface CampaignPlanJob {
  campaignId: string;
  /** The run this planner serves (the campaign's planner_id): a planner of an earlier run stops. */
  plannerId: string;
  /** When the last round admitted (ms since the epoch): the next round's budget is the time since, at the campaign's rate. */
  lastRoundAt?: number;
  /** The fraction of a message the last round's budget left over. */
  carry?: number;
}

export function campaignPlanJobId(campaignId: string, plannerId: string): string {
  return `plan-${campaignId}-${plannerId}`;
}
