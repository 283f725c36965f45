import { ChildProcess, spawn } from 'node:child_process';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { PrismaService } from '@platform/database';
import { until } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { createCampaign, listAudience, number, progress, untilDrained } from './campaign-support.js';

const RECIPIENTS = 300;

/**
 * The campaign ledger after a worker SIGKILL mid-campaign, with a message accepted by Meta but not yet
 * answered at that moment (the one window where a resend could happen): the rest of the campaign goes
 * out through another worker, and no recipient receives two messages.
 */
describe('campaigns: a worker killed mid-campaign', () => {
  // A 1 s lock lapses whenever a loaded host starves the event loop that long: each lapse counts as a stall,
  // and a job failed for stalling (`stalled`) would be neither sent nor in flight at the kill.
  const stack = useStack({ cloud: true, seed: true, env: { WORKER_LOCK_MS: '1000', WORKER_MAX_STALLED_COUNT: '20' } });
  let child: ChildProcess | undefined;
  let worker: NestFastifyApplication | undefined;

  stack.defer(async () => {
    child?.kill('SIGKILL');
    await worker?.close();
  });

  it('SIGKILL while a send is at Meta: every recipient gets at most one message, and all but those in flight get theirs', async () => {
    const db = stack.gateway.get(PrismaService, { strict: false });
    await db.query({ text: `UPDATE channel_senders SET throughput = 100 WHERE bot_id = $1`, values: [stack.seed.botId] });
    const c = await createCampaign(stack.url, stack.seed, { sendShare: 0.9 });
    const audience = Array.from({ length: RECIPIENTS }, (_, i) => ({ number: number(99, i), tz: 'UTC', img: `https://cdn.example.com/${i}.jpg` }));
    await listAudience(stack.url, stack.seed, c.id, audience);

    // Its sends in flight at the kill hold their messages for its claim's lease (1 s lock, 1.5 s pacing, 15 s timeout, 5 s).
    child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], { env: { ...process.env, ...stack.env, WHATSAPP_TIMEOUT_MS: '15000' }, stdio: 'ignore' });
    const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/campaigns/${c.id}/start`, { method: 'POST', headers: { authorization: `Bearer ${stack.seed.apiKey}` } });
    expect(res.status).toBe(200);
    // A process starting on a busy host can take many seconds.
    await until(async () => (stack.cloud.arrivals.length >= 60 ? true : undefined), 90_000, 'the worker process sending');
    let killedDuring: string | undefined;
    stack.cloud.onNextAccept(async () => {
      killedDuring = stack.cloud.arrivals[stack.cloud.arrivals.length - 1]?.to;
      child!.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
    });
    await until(async () => (child!.exitCode !== null || child!.signalCode ? true : undefined), 10_000, 'the worker killed');
    const before = stack.cloud.arrivals.length;
    expect(before).toBeLessThan(RECIPIENTS);

    worker = await createChannelWorker(stack.env);
    // A second worker starting on a loaded host, the killed one's jobs recovered, and its sends in flight waiting for their lease.
    const done = await untilDrained(stack.url, stack.seed, c.id, 180_000, stack.env);

    // The ledger check: each recipient's messages at the Cloud API, against the campaign's ledger and message rows.
    const counts = new Map<string, number>();
    for (const a of stack.cloud.arrivals) counts.set(a.to, (counts.get(a.to) ?? 0) + 1);
    const twice = [...counts.entries()].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    const { rows } = await db.query<{ recipient: string; status: string | null; code: string | null }>({
      text: `SELECT r.recipient, m.status::text AS status, m.last_error_code AS code FROM campaign_recipients r LEFT JOIN messages m ON m.id = r.message_id WHERE r.campaign_id = $1`,
      values: [c.id],
    });
    expect(rows).toHaveLength(RECIPIENTS);
    const sent = rows.filter((r) => r.status === 'sent');
    const unknown = rows.filter((r) => r.status === 'failed' && r.code === 'outcome_unknown');
    // Any other outcome, named with its error code (a job failed for stalling too often says `stalled`).
    expect(rows.filter((r) => r.status !== 'sent' && !(r.status === 'failed' && r.code === 'outcome_unknown')).map((r) => `${r.recipient}: ${r.status} ${r.code ?? ''}`)).toEqual([]);
    expect(sent.every((r) => counts.get(r.recipient) === 1)).toBe(true);
    // The message at Meta when the worker died was not sent again, and is reported with an unknown outcome.
    expect(killedDuring).toBeDefined();
    expect(counts.get(killedDuring!)).toBe(1);
    expect(unknown.map((r) => r.recipient)).toContain(killedDuring);
    console.log(`SIGKILL after ${before} sends: ${sent.length} sent, ${unknown.length} failed as outcome_unknown (in flight at the kill), 0 twice`);
    expect(done.funnel).toMatchObject({ queued: RECIPIENTS, sent: sent.length, failed: unknown.length });
    expect((await progress(stack.url, stack.seed, c.id)).status).toBe('completed');
  }, 330_000);
});
