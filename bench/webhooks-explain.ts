// `node dist/bench/webhooks-explain.js`: EXPLAIN (ANALYZE, BUFFERS) of the status webhooks' statement
// (MessageRepository.applyProviderStatuses, its exact text and parameters) on a `messages` table of
// BENCH_ROWS rows (300000), at batch sizes BENCH_BATCHES (50,100,250,500), for a batch of delivered
// statuses of known messages and one with a tenth unknown ids. Each run is rolled back, so every run
// finds the rows as they were; the execution time is the median of BENCH_REPEATS (5) runs after a warm-up.
import 'reflect-metadata';
import { MessageRepository, PROVIDER_STATUS_ORDER, type PrismaService, type ProviderStatusUpdate } from '@platform/database';
import { runBench, startInfra } from './common.js';
import pg from 'pg';

const ROWS = Number(process.env.BENCH_ROWS ?? 300_000);
const BATCHES = (process.env.BENCH_BATCHES ?? '50,100,250,500').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);

/** The statement the repository would run for these updates (a db that records instead of running). */
async function statementOf(updates: ProviderStatusUpdate[]): Promise<pg.QueryConfig> {
  let captured: pg.QueryConfig | undefined;
  const recorder = { query: async (config: pg.QueryConfig) => ((captured = config), { rows: [] }) } as unknown as PrismaService;
  await new MessageRepository(recorder).applyProviderStatuses(updates, [...PROVIDER_STATUS_ORDER]);
  return captured!;
}

async function main(): Promise<void> {
  const infra = await startInfra('webhooks-explain');
  const db = new pg.Client({ connectionString: infra.databaseUrl });
  try {
    await db.connect();
    const { seed } = infra;
    const { rows: senders } = await db.query<{ id: string }>(`SELECT "id"::text FROM "channel_senders" WHERE "bot_id" = $1::uuid LIMIT 1`, [seed.botId]);
    await db.query(
      `INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "provider_message_id", "created_at", "updated_at", "sent_at")
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'whatsapp', '15550001111', 'sent', 1, 'wamid.explain.' || i, now(), now(), now()
       FROM generate_series(1, $4::int) AS i`,
      [seed.botId, seed.templateId, senders[0].id, ROWS],
    );
    await db.query('VACUUM ANALYZE "messages"');
    process.stdout.write(`messages: ${ROWS} rows; Postgres ${(await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v}\n\n`);
    let next = 1;
    for (const size of BATCHES)
      for (const unknownShare of [0, 0.1]) {
        const updates: ProviderStatusUpdate[] = Array.from({ length: size }, (_, i) => ({
          providerMessageId: i < size * unknownShare ? `wamid.unknown.${next++}` : `wamid.explain.${next++}`,
          status: 'delivered',
          deliveredAt: new Date(),
          readAt: null,
          errorCode: null,
          errorText: null,
        }));
        const statement = await statementOf(updates);
        const times: number[] = [];
        let plan = '';
        for (let r = 0; r <= REPEATS; r++) {
          await db.query('BEGIN');
          const { rows } = await db.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, values: statement.values });
          await db.query('ROLLBACK');
          plan = rows.map((x) => x['QUERY PLAN']).join('\n');
          if (r > 0) times.push(Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1] ?? NaN));
        }
        times.sort((a, b) => a - b);
        const median = times[Math.floor(times.length / 2)];
        process.stdout.write(
          `batch ${size}, ${unknownShare * 100}% unknown: execution ${median.toFixed(2)} ms median (${((median * 1000) / size).toFixed(1)} µs per status), ${(Number(/shared hit=(\d+)/.exec(plan)?.[1] ?? NaN) / size).toFixed(1)} buffer hits per status (whole statement)\n`,
        );
        if (process.env.BENCH_PLANS) process.stdout.write(plan + '\n\n');
      }
  } finally {
    await db.end().catch(() => undefined);
    await infra.stop();
  }
}

runBench(main);
