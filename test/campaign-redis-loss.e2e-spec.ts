import { PrismaService } from '@platform/database';
import { testRedis, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { createCampaign, listAudience, number, untilDrained } from './campaign-support.js';

const RECIPIENTS = 400;

/**
 * The campaign ledger after the stack's own Redis loses its data mid-campaign (flushed, then restarted
 * empty): the planner job and the dispatch jobs of admitted recipients are gone, and the recovery sweep
 * (CampaignRecovery, every CAMPAIGN_RECOVERY_MS) adds them again from Postgres. Every recipient gets
 * exactly one message, but for any whose send was under way at the loss (failed as outcome_unknown).
 */
describe('campaigns: Redis loses its data mid-campaign', () => {
  const stack = useStack({ ownInfra: 'campaign_redis_loss', cloud: true, seed: true, worker: true, env: { CAMPAIGN_RECOVERY_MS: '1000', WORKER_LOCK_MS: '2000' } }, 120_000);

  it('the lost jobs are queued again: no recipient twice, none missed', async () => {
    const db = stack.gateway.get(PrismaService, { strict: false });
    await db.query({ text: `UPDATE channel_senders SET throughput = 60 WHERE bot_id = $1`, values: [stack.seed.botId] });
    const c = await createCampaign(stack.url, stack.seed, { sendShare: 0.9 });
    const audience = Array.from({ length: RECIPIENTS }, (_, i) => ({ number: number(98, i), tz: 'UTC', img: `https://cdn.example.com/${i}.jpg` }));
    await listAudience(stack.url, stack.seed, c.id, audience);
    const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/campaigns/${c.id}/start`, { method: 'POST', headers: { authorization: `Bearer ${stack.seed.apiKey}` } });
    expect(res.status).toBe(200);
    await until(async () => (stack.cloud.accepted.size >= 100 ? true : undefined), 90_000, 'the campaign sending');

    const redis = testRedis(stack.env);
    try {
      await redis.flushall();
    } finally {
      redis.disconnect();
    }
    // Admitted but not sent at the loss: their jobs went with it.
    const { rows: lostJobs } = await db.query<{ n: string }>({
      text: `SELECT count(*) AS n FROM campaign_recipients r LEFT JOIN messages m ON m.id = r.message_id WHERE r.campaign_id = $1 AND r.status = 'queued' AND (m.id IS NULL OR m.status IN ('queued', 'processing'))`,
      values: [c.id],
    });
    await stack.redis.stop();
    await stack.redis.start();
    const sentAtLoss = stack.cloud.accepted.size;

    const done = await untilDrained(stack.url, stack.seed, c.id, 90_000, stack.env);

    // The ledger check: each recipient's messages at the Cloud API, against the campaign's ledger and message rows.
    const twice = [...stack.cloud.accepted.entries()].filter(([, ids]) => ids.length > 1);
    expect(twice).toEqual([]);
    const { rows } = await db.query<{ recipient: string; ledger: string; status: string | null; code: string | null }>({
      text: `SELECT r.recipient, r.status::text AS ledger, m.status::text AS status, m.last_error_code AS code FROM campaign_recipients r LEFT JOIN messages m ON m.id = r.message_id WHERE r.campaign_id = $1`,
      values: [c.id],
    });
    expect(rows).toHaveLength(RECIPIENTS);
    const sent = rows.filter((r) => r.status === 'sent');
    const unknown = rows.filter((r) => r.status === 'failed' && r.code === 'outcome_unknown');
    expect(sent.length + unknown.length).toBe(RECIPIENTS);
    expect(sent.every((r) => stack.cloud.accepted.get(r.recipient)?.length === 1)).toBe(true);
    // Only sends under way at the loss can have an unknown outcome.
    expect(unknown.length).toBeLessThanOrEqual(Number(lostJobs[0].n));
    console.log(`Redis flushed and restarted after ${sentAtLoss} sends, ${lostJobs[0].n} admitted messages unsent: ${sent.length} sent, ${unknown.length} outcome_unknown, 0 twice`);
    expect(done.funnel).toMatchObject({ queued: RECIPIENTS, sent: sent.length, failed: unknown.length });
  }, 240_000);
});
