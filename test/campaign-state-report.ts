// What holds a campaign back, as text: printed by a campaign test whose wait for the campaign timed out.
import pg from 'pg';
import type { Job } from 'bullmq';
import { CampaignQueueNames, QueueNames } from '@platform/contracts';
import { bullPrefix, whatsappPaceKeys } from '@platform/queue';
import { testQueue, testRedis } from '@platform/testing';

/** Lines of each list shown at most. */
const MAX_LINES = 15;

/** The test env's settings this report reads (DATABASE_URL, REDIS_URL or the cluster's, REDIS_KEY_PREFIX). */
export type StackEnv = Record<string, string>;

/**
 * The campaign's state: its row and ledger, its messages not final (with their claims), the jobs of the
 * dispatch and planner queues by state (the campaign's own, with their delays, locks and failure reasons),
 * and the sender number's pacing keys, all read at once at the moment of the call. Never throws: a part it
 * cannot read says why.
 */
export async function campaignStateReport(env: StackEnv, campaignId: string): Promise<string> {
  const out: string[] = [`--- state of campaign ${campaignId} ---`];
  const part = async (title: string, read: () => Promise<string[]>) => {
    out.push(`${title}:`);
    try {
      const lines = await read();
      out.push(...(lines.length ? lines : ['(none)']).map((l) => `  ${l}`));
    } catch (err) {
      out.push(`  (could not be read: ${(err as Error).message})`);
    }
  };
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  const redis = testRedis(env, { maxRetriesPerRequest: 1 });
  const dispatch = testQueue(QueueNames.carouselDispatch, env);
  const planners = testQueue(CampaignQueueNames.campaigns, env);
  let phoneNumberId: string | undefined;
  try {
    await db.connect();
    const [sec, micro] = await redis.time();
    const redisNow = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    out.push(`now: ${new Date().toISOString()} (Redis clock ${new Date(redisNow).toISOString()})`);
    await part('campaign row', async () => {
      const { rows } = await db.query(
        `SELECT c.status::text, c.planner_id, c.started_at, c.finished_at, c.rows_total, c.send_share, s.phone_number_id, s.throughput
         FROM campaigns c JOIN channel_senders s ON s.id = c.sender_id WHERE c.id = $1`,
        [campaignId],
      );
      phoneNumberId = rows[0]?.phone_number_id;
      return rows.map(
        (r) =>
          `status=${r.status} planner=${r.planner_id} started=${iso(r.started_at)} finished=${iso(r.finished_at)} rows=${r.rows_total} share=${r.send_share} sender=${r.phone_number_id} throughput=${r.throughput}/s`,
      );
    });
    await part('ledger (campaign_recipients by status, message status)', async () => {
      const { rows } = await db.query(
        `SELECT r.status::text AS ledger, COALESCE(m.status::text, '(no message)') AS message, count(*)::int AS n
         FROM campaign_recipients r LEFT JOIN messages m ON m.id = r.message_id WHERE r.campaign_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [campaignId],
      );
      return rows.map((r) => `${r.ledger.padEnd(10)} ${String(r.message).padEnd(13)} ${r.n}`);
    });
    const { rows: open } = await db
      .query<{
        id: string;
        recipient: string;
        ledger: string;
        status: string | null;
        attempts: number | null;
        claimed_until: Date | null;
        updated_at: Date | null;
        admitted_at: Date | null;
        code: string | null;
      }>(
        `SELECT r.message_id::text AS id, r.recipient, r.status::text AS ledger, m.status::text AS status, m.attempts, m.claimed_until, m.updated_at, r.admitted_at, m.last_error_code AS code
         FROM campaign_recipients r LEFT JOIN messages m ON m.id = r.message_id
         WHERE r.campaign_id = $1 AND r.status = 'queued' AND (m.id IS NULL OR m.status IN ('queued', 'processing'))
         ORDER BY r.row_no`,
        [campaignId],
      )
      .catch(() => ({ rows: [] }));
    await part(`admitted messages not final (${open.length})`, async () => {
      const states = await Promise.all(open.slice(0, MAX_LINES).map((m) => dispatch.getJobState(m.id).catch((err: Error) => `? ${err.message}`)));
      return open
        .slice(0, MAX_LINES)
        .map(
          (m, i) =>
            `${m.id} to ${m.recipient}: message ${m.status ?? '(none: never claimed)'} attempts=${m.attempts ?? 0} claimed_until=${iso(m.claimed_until)} updated=${iso(m.updated_at)} admitted=${iso(m.admitted_at)}${m.code ? ` error=${m.code}` : ''}; job ${states[i]}`,
        )
        .concat(open.length > MAX_LINES ? [`… and ${open.length - MAX_LINES} more`] : []);
    });
    for (const [name, queue, mine] of [
      [QueueNames.carouselDispatch, dispatch, (j: Job) => (j.data as { campaignId?: string }).campaignId === campaignId],
      [CampaignQueueNames.campaigns, planners, (j: Job) => (j.data as { campaignId?: string }).campaignId === campaignId],
    ] as const) {
      await part(`queue ${name}`, async () => {
        const counts = await queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed', 'waiting-children', 'completed', 'failed');
        const lines = [
          Object.entries(counts)
            .map(([k, v]) => `${k}=${v}`)
            .join(' '),
        ];
        for (const state of ['active', 'waiting', 'prioritized', 'delayed', 'failed'] as const) {
          const jobs = (await queue.getJobs([state], 0, 499)).filter((j) => j && mine(j));
          for (const j of jobs.slice(0, MAX_LINES)) lines.push(`${state} ${await jobLine(j, redisNow, redis, bullPrefix(env, name), name)}`);
          if (jobs.length > MAX_LINES) lines.push(`${state}: … and ${jobs.length - MAX_LINES} more of this campaign`);
        }
        const stalledCheck = await redis.pttl(`${bullPrefix(env, name)}:${name}:stalled-check`);
        const stalled = await redis.smembers(`${bullPrefix(env, name)}:${name}:stalled`);
        lines.push(`stalled-check key ttl=${stalledCheck} ms, stalled set: [${stalled.join(', ')}]`);
        return lines;
      });
    }
    await part('pacing keys of the sender number', async () => {
      if (!phoneNumberId) return ['(sender unknown)'];
      const keys = whatsappPaceKeys(env, phoneNumberId);
      const [state, held, sending, ttl] = await Promise.all([
        redis.hgetall(keys.state),
        redis.zrange(keys.held, 0, -1, 'WITHSCORES'),
        redis.zrange(keys.sending, 0, -1, 'WITHSCORES'),
        redis.pttl(keys.state),
      ]);
      const at = (list: string[]) => pairs(list).map(([m, s]) => `${m}@${Number(s) - redisNow >= 0 ? '+' : ''}${Number(s) - redisNow}ms`);
      return [
        `${keys.state} (ttl ${ttl} ms): ${Object.entries(state)
          .map(([k, v]) => `${k}=${k === 'next' || k === 'slow_at' ? `${v} (${Number(v) - redisNow >= 0 ? '+' : ''}${Number(v) - redisNow}ms)` : v}`)
          .join(' ')}`,
        `held (${held.length / 2}): ${at(held).slice(0, MAX_LINES).join(', ')}`,
        `sending (${sending.length / 2}): ${at(sending).slice(0, MAX_LINES).join(', ')}`,
      ];
    });
  } catch (err) {
    out.push(`(report cut short: ${(err as Error).message})`);
  } finally {
    await Promise.allSettled([db.end(), dispatch.close(), planners.close()]);
    redis.disconnect();
  }
  return out.join('\n');
}

/** One job: id, when it runs (delayed), attempts and stalls, its lock's time left (active), its failure or return value. */
async function jobLine(j: Job, redisNow: number, redis: ReturnType<typeof testRedis>, prefix: string, queue: string): Promise<string> {
  const parts = [`${j.id} (${j.name})`];
  // A delayed job's score is its due time × 0x1000 (plus a counter); job.delay is not updated by moveToDelayed.
  const score = await redis.zscore(`${prefix}:${queue}:delayed`, j.id!);
  if (score !== null) parts.push(`due in ${Math.floor(Number(score) / 0x1000) - redisNow} ms`);
  parts.push(`attempts=${j.attemptsMade} stalled=${j.stalledCounter ?? 0}`);
  if (j.processedOn) parts.push(`processedOn=${iso(new Date(j.processedOn))}`);
  const lock = await redis.pttl(`${prefix}:${queue}:${j.id}:lock`);
  if (lock !== -2) parts.push(`lock ttl=${lock} ms`);
  if (j.failedReason) parts.push(`failedReason=${JSON.stringify(j.failedReason)}`);
  const data = j.data as Record<string, unknown>;
  const extra = Object.entries(data).filter(([k]) => ['lastRoundAt', 'carry', 'providerMessageId', 'throttles', 'retries', 'recipient'].includes(k));
  if (extra.length) parts.push(extra.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' '));
  return parts.join(' ');
}

function pairs(list: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < list.length; i += 2) out.push([list[i], list[i + 1]]);
  return out;
}

function iso(d: Date | null | undefined): string {
  return d ? new Date(d).toISOString() : '-';
}
