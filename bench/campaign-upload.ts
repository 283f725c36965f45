// `npm run bench:campaign-upload`: campaign audiences streamed as CSV to one built gateway process
// (`PUT /v1/bots/{botId}/campaigns/{id}/audience/csv`, docs/campaigns.md), each generated as it is sent and
// never held whole by the client: BENCH_ROWS / 10 rows, then BENCH_ROWS (default 1,000,000) in the same run.
// Reports each upload's time, rows/s and the gateway's resident memory before and at its peak (sampled every
// 50 ms from /proc): a streaming gateway grows by about the same for both; one that held the file would grow
// with its size.
//
// Environment: BENCH_ROWS (default 1000000). Exits non-zero when an answer's counts or the ledger's rows
// are not what was sent.
import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import pg from 'pg';
import { freePort } from '@platform/local-infra';
import { describeMachine, fmt, machineLine, reportFailures, runBench, startInfra, startNode, stopProcess, waitHealthy } from './common.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

/** Resident memory of a process now, MiB (VmRSS). */
function rssMiB(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) / 1024;
}

/** The CSV (header number,tz,img), made 1,000 rows at a time as the request body is read; `bytes` counts what was made. */
function csvBody(rows: number): { stream: ReadableStream<Uint8Array>; bytes: () => number } {
  let i = 0;
  let bytes = 0;
  const node = new Readable({
    read() {
      let chunk = i === 0 ? 'number,tz,img\n' : '';
      if (i >= rows) return void this.push(null);
      for (const end = Math.min(i + 1000, rows); i < end; i++) chunk += `+91${String(7_000_000_000 + i)},Asia/Kolkata,https://cdn.example.com/p/${i}.jpg\n`;
      bytes += Buffer.byteLength(chunk);
      this.push(chunk);
    },
  });
  return { stream: Readable.toWeb(node) as ReadableStream<Uint8Array>, bytes: () => bytes };
}

async function main(): Promise<void> {
  const infra = await startInfra('campaign-upload');
  let gateway: ChildProcess | undefined;
  const failures: string[] = [];
  try {
    const machine = await describeMachine(infra);
    const port = await freePort();
    gateway = startNode(['dist/apps/gateway/src/main.js'], { ...infra.env, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(`${url}/health`, gateway);
    const pid = gateway.pid!;
    const { seed } = infra;
    const db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    // A tenth of the rows first, then all of them, in one run: a gateway that streams grows by about the same
    // for both; one that held the file would grow ten times as much for the second.
    const results: Upload[] = [];
    for (const rows of [Math.max(1, Math.round(ROWS / 10)), ROWS]) {
      const r = await upload(url, seed, pid, rows, db);
      failures.push(...r.failures);
      results.push(r);
      console.log(
        `campaign CSV upload: ${fmt(rows)} rows (${fmt(r.csvMiB, 1)} MiB) in ${fmt(r.seconds, 1)} s, ${fmt(rows / r.seconds)} rows/s; ` +
          `gateway RSS ${fmt(r.before)} MiB before, peak ${fmt(r.peak)} MiB (+${fmt(r.peak - r.before)} MiB)`,
      );
    }
    await db.end();
    const [small, full] = results;
    console.log(`  streamed: the CSV ${fmt(full.csvMiB / small.csvMiB, 1)}x larger, the gateway's peak growth ${fmt(full.peak - full.before)} MiB against ${fmt(small.peak - small.before)} MiB`);
    console.log(
      `  ${machineLine(machine)}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    if (gateway) await stopProcess(gateway);
    await infra.stop();
  }
  reportFailures(failures);
}

interface Upload {
  seconds: number;
  csvMiB: number;
  before: number;
  peak: number;
  failures: string[];
}

/** One campaign, its audience of `rows` rows streamed; the gateway's RSS sampled every 50 ms meanwhile. */
async function upload(url: string, seed: { apiKey: string; botId: string; templateId: string; senderNumber: string }, pid: number, rows: number, db: pg.Client): Promise<Upload> {
  const headers = { authorization: `Bearer ${seed.apiKey}` };
  const created = await fetch(`${url}/v1/bots/${seed.botId}/campaigns`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `bench ${rows} rows`,
      templateId: seed.templateId,
      sender: `+${seed.senderNumber}`,
      mapping: {
        number: 'number',
        timeZone: 'tz',
        cards: [{ mediaLink: 'img' }, { mediaLink: { value: 'https://cdn.example.com/b.jpg' } }, { mediaLink: { value: 'https://cdn.example.com/c.jpg' } }],
      },
    }),
  });
  if (created.status !== 201) throw new Error(`campaign create answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };

  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  const body = csvBody(rows);
  const started = process.hrtime.bigint();
  const init: RequestInit & { duplex: 'half' } = { method: 'PUT', headers: { ...headers, 'content-type': 'text/csv' }, body: body.stream, duplex: 'half' };
  const res = await fetch(`${url}/v1/bots/${seed.botId}/campaigns/${id}/audience/csv`, init);
  const answer = (await res.json()) as { rows?: number; valid?: number; message?: string };
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(pid));

  const failures: string[] = [];
  const { rows: staged } = await db.query<{ n: string }>({ text: `SELECT count(*) AS n FROM campaign_recipients WHERE campaign_id = $1 AND status = 'pending'`, values: [id] });
  if (res.status !== 200) failures.push(`upload of ${rows} answered ${res.status}: ${answer.message}`);
  else if (answer.rows !== rows || answer.valid !== rows) failures.push(`the answer counted ${answer.rows} rows, ${answer.valid} valid (expected ${rows})`);
  if (Number(staged[0].n) !== rows) failures.push(`the ledger holds ${staged[0].n} pending recipients (expected ${rows})`);
  return { seconds, csvMiB: body.bytes() / 1024 / 1024, before, peak, failures };
}

runBench(main);
