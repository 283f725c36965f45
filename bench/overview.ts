// npm run bench:overview: the console overview's queries over 10 million messages.
//
// Seeds, in SQL with generate_series, OVERVIEW_ROWS messages (default 10,000,000) over 90 days for two
// bots (nine in ten for the measured one, so its reads must skip the other's rows), and in proportion
// (at 10M) 200,000 conversations with 1,000,000 replies, and about 550,000 hosted-bot steps in 100,000
// conversations. Then it times each query of the overview (OverviewRepository, as the gateway runs
// them) for the last 7, 30 and 90 days: cold (the first run after Postgres restarted, its shared
// buffers empty; the kernel's page cache is not dropped, which needs root) and warm (the median of 5
// runs). Before each refresh run today is marked dirty in every rollup, as any write of today does. For
// comparison it times the live counts the rollups replace, and the one-off backfill of the rollups.
// A smoke run: OVERVIEW_ROWS=200000 OVERVIEW_COLD=0 npm run bench:overview (no Postgres restarts).
// Prints a section for BENCHMARKS.md.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import pg from 'pg';
import { BotDefinitionRepository, migrate, OverviewRepository, type DayRange } from '@platform/database';
import { startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { TEST_ENCRYPTION_KEYS, seedCarouselBot } from '@platform/testing';
import { CliModule } from '../apps/cli/src/cli.module.js';
import { OverviewService } from '../apps/gateway/src/console/overview.service.js';
import { describeMachine, fmt, machineLine, runBench } from './common.js';

const ROWS = Number(process.env.OVERVIEW_ROWS ?? 10_000_000);
/** Conversations, replies and step conversations in proportion to the messages (200,000, 1,000,000 and 100,000 at 10M). */
const CONVERSATIONS = Math.max(100, Math.round(ROWS / 50));
const REPLIES = Math.max(500, Math.round(ROWS / 10));
const STEP_CONVERSATIONS = Math.max(50, Math.round(ROWS / 100));
/** OVERVIEW_COLD=0 skips the cold runs (each restarts Postgres): a quicker smoke run. */
const COLD = process.env.OVERVIEW_COLD !== '0';
const CHUNK = 1_000_000;
const WARM_RUNS = 5;
const DAY_MS = 86_400_000;

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

runBench(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-overview-'));
  const postgres = await startLocalPostgres({ dataDir: join(dir, 'pg'), persistent: true });
  const redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
  let app: INestApplicationContext | undefined;
  let db: pg.Client | undefined;
  try {
    const databaseUrl = await postgres.createDatabase('bench');
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'));
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS, LOG_LEVEL: 'warn', DATABASE_QUERY_TIMEOUT_MS: '600000' };
    const machine = await describeMachine({ databaseUrl, redisUrl: redis.url });
    const context = () => NestFactory.createApplicationContext(CliModule.forRoot(env), { logger: ['error'] });
    app = await context();
    const seed = await seedCarouselBot(app);
    const other = await seedCarouselBot(app);
    await app.close();
    app = undefined;

    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const bot = seed.botId;
    // Two more templates and senders for the measured bot: the funnels have rows to group.
    await db.query(
      `INSERT INTO templates (id, bot_id, channel, provider_name, language, category, card_count, card_header_format)
       SELECT gen_random_uuid(), bot_id, channel, provider_name || '_' || n, language, category, card_count, card_header_format FROM templates, generate_series(2, 3) n WHERE id = $1`,
      [seed.templateId],
    );
    await db.query(
      `INSERT INTO channel_senders (id, bot_id, channel, number, phone_number_id, access_token_encrypted)
       SELECT gen_random_uuid(), bot_id, channel, '1555000' || n || '000', phone_number_id || n, access_token_encrypted FROM channel_senders, generate_series(2, 3) n WHERE bot_id = $1`,
      [bot],
    );
    const templates = (await db.query<{ id: string }>('SELECT id FROM templates WHERE bot_id = $1 ORDER BY id', [bot])).rows.map((r) => r.id);
    const senders = (await db.query<{ id: string }>('SELECT id FROM channel_senders WHERE bot_id = $1 ORDER BY id', [bot])).rows.map((r) => r.id);

    // The seed skips the foreign-key checks and the rollup's marker triggers (replica mode), which would
    // triple its time; every seeded day is marked dirty afterwards, as the triggers would have done.
    await db.query("SET session_replication_role = 'replica'");
    const seedStart = process.hrtime.bigint();
    for (let a = 1; a <= ROWS; a += CHUNK) {
      const b = Math.min(ROWS, a + CHUNK - 1);
      const t = process.hrtime.bigint();
      // In time order, as a table that is only appended to is laid out: row i is (i * 90 / ROWS) days old
      // (the newest first); the statuses are half read, a quarter delivered, then sent, failed, queued.
      await db.query(
        `INSERT INTO messages (id, bot_id, template_id, sender_id, channel, recipient, status, attempts, created_at, updated_at)
         SELECT gen_random_uuid(), CASE WHEN i % 10 = 0 THEN $2::uuid ELSE $1::uuid END, ($3::uuid[])[(1 + i % 3)::int], ($4::uuid[])[(1 + (i / 3) % 3)::int], 'whatsapp',
                '9198' || lpad((i % 10000000)::text, 8, '0'),
                (ARRAY['read','read','read','read','read','delivered','delivered','sent','failed','queued'])[(1 + (i * 7) % 10)::int]::"MessageStatus", 1, ts, ts
         FROM (SELECT i, now() - (i * 90 * 86400 / $7::bigint) * interval '1 second' AS ts FROM generate_series($5::bigint, $6::bigint) i) x`,
        [bot, other.botId, templates, senders, a, b, ROWS],
      );
      log(`messages ${fmt(b)} / ${fmt(ROWS)} (${fmt(ms(t) / 1000, 1)} s)`);
    }
    const messagesSeedS = ms(seedStart) / 1000;

    let t = process.hrtime.bigint();
    await db.query(
      `INSERT INTO conversations (id, bot_id, channel, user_id, created_at, updated_at)
       SELECT md5('c' || i)::uuid, $1, CASE WHEN i % 3 = 0 THEN 'web' ELSE 'whatsapp' END::"ConversationChannel", 'u' || i, ts, ts
       FROM (SELECT i, now() - (i::bigint * 90 * 86400 / $2) * interval '1 second' AS ts FROM generate_series(0, $2 - 1) i) x`,
      [bot, CONVERSATIONS],
    );
    await db.query(
      `INSERT INTO conversation_messages (id, conversation_id, direction, type, content, status, created_at)
       SELECT gen_random_uuid(), md5('c' || (i / 5))::uuid, 'outbound', 'text', '{"text":"hi"}', (ARRAY['read','read','delivered','sent','failed'])[1 + i % 5]::"MessageStatus",
              now() - (i::bigint * 90 * 86400 / $1) * interval '1 second'
       FROM generate_series(0, $1 - 1) i`,
      [REPLIES],
    );
    // Conversation c runs journey start or order for 1 + c % 10 nodes; a third end at an end node, the rest wait.
    await db.query(
      `INSERT INTO bot_steps (conversation_id, bot_id, version, journey, node, kind, outcome, error, duration_ms, started_at)
       SELECT md5('c' || c)::uuid, $1, 1, CASE WHEN c % 2 = 0 THEN 'start' ELSE 'order' END, 'n' || s,
              CASE WHEN s = 1 + c % 10 AND c % 3 = 0 THEN 'end' ELSE 'question' END,
              CASE WHEN s = 1 + c % 10 AND c % 3 <> 0 THEN 'waiting' WHEN (c + s) % 50 = 0 THEN 'error' ELSE 'ok' END, NULL, 1.5,
              now() - (c::bigint * 90 * 86400 / $2) * interval '1 second' + s * interval '1 second'
       FROM generate_series(0, $2 - 1) c, generate_series(1, 10) s WHERE s <= 1 + c % 10`,
      [bot, STEP_CONVERSATIONS],
    );
    const restSeedS = ms(t) / 1000;
    await db.query("SET session_replication_role = 'origin'");
    await db.query(`INSERT INTO message_stats_dirty (bot_id, day) SELECT DISTINCT bot_id, (created_at AT TIME ZONE 'UTC')::date FROM messages ON CONFLICT DO NOTHING`);
    await db.query(
      `INSERT INTO overview_stats_dirty (bot_id, day, part)
       SELECT $1, d::date, p FROM generate_series(now() - interval '91 days', now(), interval '1 day') d, unnest(ARRAY['steps', 'replies', 'conversations']) p ON CONFLICT DO NOTHING`,
      [bot],
    );
    t = process.hrtime.bigint();
    await db.query('VACUUM ANALYZE');
    const vacuumS = ms(t) / 1000;
    const counts = (
      await db.query<{ m: string; mine: string; cm: string; st: string }>(
        `SELECT (SELECT count(*) FROM messages) m, (SELECT count(*) FROM messages WHERE bot_id = $1) mine, (SELECT count(*) FROM conversation_messages) cm, (SELECT count(*) FROM bot_steps) st`,
        [bot],
      )
    ).rows[0];
    log(`seeded ${counts.m} messages (${counts.mine} of the bot), ${counts.cm} replies, ${counts.st} steps`);

    const today = new Date(Date.now()).toISOString().slice(0, 10);
    const back = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const ranges: Record<string, DayRange> = { '7 days': { from: back(7), to: today }, '30 days': { from: back(30), to: today }, '90 days': { from: back(90), to: today } };

    app = await context();
    let repo = app.get(OverviewRepository);
    let definitions = app.get(BotDefinitionRepository);
    t = process.hrtime.bigint();
    const backfilled = await repo.refresh(bot, ranges['90 days']);
    const backfillS = ms(t) / 1000;
    log(`rollup backfill: ${backfilled} days in ${fmt(backfillS, 1)} s`);
    t = process.hrtime.bigint();
    const backfilledParts = await repo.refreshParts(bot, ranges['90 days']);
    const backfillPartsS = ms(t) / 1000;
    log(`replies, conversations, steps rollup backfill: ${backfilledParts} days in ${fmt(backfillPartsS, 1)} s`);
    const rollupRows = (await db.query<{ n: string }>('SELECT count(*) n FROM message_daily_stats WHERE bot_id = $1', [bot])).rows[0].n;
    const partRows = (
      await db.query<{ n: string }>(
        'SELECT (SELECT count(*) FROM reply_daily_stats WHERE bot_id = $1) + (SELECT count(*) FROM conversation_daily_stats WHERE bot_id = $1) + (SELECT count(*) FROM bot_step_daily_stats WHERE bot_id = $1) n',
        [bot],
      )
    ).rows[0].n;

    const markToday = () => db!.query('INSERT INTO message_stats_dirty (bot_id, day) VALUES ($1, $2) ON CONFLICT DO NOTHING', [bot, today]);
    const markPartsToday = () =>
      db!.query(`INSERT INTO overview_stats_dirty (bot_id, day, part) SELECT $1, $2, p FROM unnest(ARRAY['steps', 'replies', 'conversations']) p ON CONFLICT DO NOTHING`, [bot, today]);
    const markAllToday = () => Promise.all([markToday(), markPartsToday()]);
    const liveGroupBy = (r: DayRange) =>
      db!.query(
        `SELECT (created_at AT TIME ZONE 'UTC')::date, template_id, sender_id, status, count(*) FROM messages
         WHERE bot_id = $1 AND created_at >= $2::date::timestamp AT TIME ZONE 'UTC' AND created_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC' GROUP BY 1, 2, 3, 4`,
        [bot, r.from, r.to],
      );
    type Query = { name: string; before?: () => Promise<unknown>; run: (r: DayRange) => Promise<unknown> };
    const queries: Query[] = [
      { name: 'refresh carousels (recount today, marked dirty)', before: markToday, run: (r) => repo.refresh(bot, r) },
      { name: 'refresh replies, conversations, steps (recount today, marked dirty)', before: markPartsToday, run: (r) => repo.refreshParts(bot, r) },
      { name: 'carousels per day, template, sender (rollup)', run: (r) => repo.carouselDays(bot, r) },
      { name: 'replies per day by status (rollup)', run: (r) => repo.replyDays(bot, r) },
      { name: 'conversations per channel (rollup)', run: (r) => repo.conversationsPerChannel(bot, r) },
      { name: 'journey nodes: reached, ended, waiting, errors (rollup)', run: (r) => repo.journeyNodes(bot, r) },
      { name: 'whole overview (GET /v1/bots/:id/overview, today dirty)', before: markAllToday, run: (r) => new OverviewService(repo, definitions).overview(bot, r) },
      { name: 'for comparison: live GROUP BY over messages (no rollup)', run: liveGroupBy },
      { name: 'for comparison: replies counted live', run: (r) => repo.replyDaysLive(bot, r) },
      { name: 'for comparison: conversations counted live', run: (r) => repo.conversationsPerChannelLive(bot, r) },
      { name: 'for comparison: journey nodes counted live', run: (r) => repo.journeyNodesLive(bot, r) },
    ];

    const results: Array<{ range: string; name: string; cold: number; warm: number }> = [];
    for (const [label, range] of Object.entries(ranges)) {
      for (const q of queries) {
        // Cold: Postgres restarted, so its shared buffers hold nothing of the tables.
        if (COLD) {
          await db.end();
          await app.close();
          await postgres.stop();
          await postgres.start();
          db = new pg.Client({ connectionString: databaseUrl });
          await db.connect();
          app = await context();
          repo = app.get(OverviewRepository);
          definitions = app.get(BotDefinitionRepository);
        }
        await q.before?.();
        let s = process.hrtime.bigint();
        await q.run(range);
        const cold = ms(s);
        const warm: number[] = [];
        for (let i = 0; i < WARM_RUNS; i++) {
          await q.before?.();
          s = process.hrtime.bigint();
          await q.run(range);
          warm.push(ms(s));
        }
        results.push({ range: label, name: q.name, cold, warm: median(warm) });
        log(`${label} ${q.name}: cold ${fmt(cold, 1)} ms, warm ${fmt(median(warm), 1)} ms`);
      }
    }

    const overview = (await new OverviewService(repo, definitions).overview(bot, ranges['30 days'])) as { totals: { carousels: { accepted: number } } };
    const lines = [
      '## Console overview queries (`npm run bench:overview`)',
      '',
      `Machine: ${machineLine(machine)}.`,
      '',
      `Seeded with generate_series: ${fmt(Number(counts.m))} messages over 90 days (${fmt(Number(counts.mine))} of the measured bot, 3 templates × 3 senders; the rest another bot's) in ${fmt(messagesSeedS)} s, ` +
        `${fmt(CONVERSATIONS)} conversations, ${fmt(Number(counts.cm))} replies and ${fmt(Number(counts.st))} hosted-bot steps in ${fmt(restSeedS)} s, VACUUM ANALYZE ${fmt(vacuumS)} s. ` +
        `The one-off carousel rollup backfill (all ${backfilled} days dirty after the seed) took ${fmt(backfillS, 1)} s and wrote ${rollupRows} rows; ` +
        `the replies, conversations and steps backfill (${backfilledParts} days) ${fmt(backfillPartsS, 1)} s and ${partRows} rows; ` +
        `the last 30 days hold ${fmt(overview.totals.carousels.accepted)} of the bot's carousel messages.`,
      '',
      `Load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ', ',
        )}. ${COLD ? '' : 'OVERVIEW_COLD=0: "cold" is only the first run (Postgres not restarted). '}Cold: the first run after Postgres restarted (empty shared buffers; the kernel's page cache stays warm). Warm: the median of ${WARM_RUNS} runs. "Today dirty": today's day was marked changed before each run, as any write of today's messages does, so the run recounts it.`,
      '',
      '| Range | Query | Cold ms | Warm ms (median) |',
      '|---|---|---:|---:|',
      ...results.map((r) => `| ${r.range} | ${r.name} | ${fmt(r.cold, 1)} | ${fmt(r.warm, 1)} |`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await db?.end().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await postgres.stop().catch(() => undefined);
    await redis.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});
