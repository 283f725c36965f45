// `npm run bench:campaign-upload`: campaign audiences streamed as CSV to one built gateway process
// (`PUT /v1/bots/{botId}/campaigns/{id}/audience/csv`, docs/campaigns.md), each generated as it is sent and
// never held whole by the client: BENCH_ROWS / 10 rows, then BENCH_ROWS (default 1,000,000) in the same run.
// Reports each upload's time, rows/s and the gateway's memory before and at its peak: RSS, V8 heap used and
// committed, external and ArrayBuffer memory, and V8's new space, sampled every 20 ms inside the gateway by
// bench/memory-probe.ts (loaded with --import, bench only). A gateway whose memory is bounded grows by about
// the same for both; one that held the file, or rows beyond a batch, would grow with its size.
//
// Environment: BENCH_ROWS (default 1000000); BENCH_HEAP_SNAPSHOT=1 writes heap snapshots of the gateway to
// .local/profiles/ before and half-way through the large upload; BENCH_TRACE_GC=1 runs the gateway with --trace-gc;
// BENCH_HEAP_SAMPLING=1 runs V8's sampling heap profiler through the large upload (bench/memory-probe.ts: what
// reached the old generation, garbage included) and prints its top allocation sites. Exits non-zero when an answer's counts or the
// ledger's rows are not what was sent.
import { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { freePort } from '@platform/local-infra';
import { describeMachine, fmt, machineLine, reportFailures, runBench, startInfra, startNode, stopProcess, waitHealthy } from './common.js';
import type { MemoryPeaks } from './memory-probe.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

const MiB = 1024 * 1024;

/** Asks the gateway's memory probe (bench/memory-probe.ts) over IPC: 'reset' starts new peaks, 'report' answers them. */
function probe(
  child: ChildProcess,
  what: 'reset' | 'report' | 'snapshot' | 'sampling-start' | 'sampling-stop',
  label?: string,
): Promise<{ peaks?: MemoryPeaks; file?: string; top?: Array<{ site: string; MiB: number }> }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway's memory probe did not answer ${what}`)), 120_000);
    const onMessage = (msg: { probe?: string; peaks?: MemoryPeaks; file?: string; top?: Array<{ site: string; MiB: number }> }) => {
      if (msg?.probe !== what) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(msg);
    };
    child.on('message', onMessage);
    child.send({ probe: what, label });
  });
}

/** The CSV (header number,tz,img), made 1,000 rows at a time as the request body is read; `bytes` counts what was made, `made` the rows. */
function csvBody(rows: number): { stream: ReadableStream<Uint8Array>; bytes: () => number; made: () => number } {
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
  return { stream: Readable.toWeb(node) as ReadableStream<Uint8Array>, bytes: () => bytes, made: () => i };
}

async function main(): Promise<void> {
  const infra = await startInfra('campaign-upload');
  let gateway: ChildProcess | undefined;
  const failures: string[] = [];
  try {
    const machine = await describeMachine(infra);
    const port = await freePort();
    // The probe comes with an IPC channel (fork = true); the gateway itself never reads it.
    gateway = startNode(
      [...(process.env.BENCH_TRACE_GC ? ['--trace-gc'] : []), '--import', pathToFileURL('dist/bench/memory-probe.js').href, 'dist/apps/gateway/src/main.js'],
      { ...infra.env, PORT: String(port) },
      true,
    );
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(`${url}/health`, gateway);
    const { seed } = infra;
    const db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    // A tenth of the rows first, then all of them, in one run: a gateway that streams grows by about the same
    // for both; one that held the file would grow ten times as much for the second.
    const results: Upload[] = [];
    for (const rows of [Math.max(1, Math.round(ROWS / 10)), ROWS]) {
      const r = await upload(url, seed, gateway, rows, db, rows === ROWS && !!process.env.BENCH_HEAP_SNAPSHOT);
      failures.push(...r.failures);
      results.push(r);
      const m = (k: keyof Omit<MemoryPeaks, 'spaces' | 'samples'>) => `${fmt(r.before[k] / MiB)} → ${fmt(r.peak[k] / MiB)} (+${fmt((r.peak[k] - r.before[k]) / MiB)})`;
      console.log(
        `campaign CSV upload: ${fmt(rows)} rows (${fmt(r.csvMiB, 1)} MiB) in ${fmt(r.seconds, 1)} s, ${fmt(rows / r.seconds)} rows/s; gateway MiB before → peak: ` +
          `RSS ${m('rss')}, heapUsed ${m('heapUsed')}, heapTotal ${m('heapTotal')}, external ${m('external')}, arrayBuffers ${m('arrayBuffers')}; ` +
          `peak new space ${fmt((r.peak.spaces.new_space ?? 0) / MiB)}, old space ${fmt((r.peak.spaces.old_space ?? 0) / MiB)}, large objects ${fmt((r.peak.spaces.large_object_space ?? 0) / MiB)} (${r.peak.samples} samples)`,
      );
    }
    await db.end();
    const [small, full] = results;
    const growth = (r: Upload, k: 'rss' | 'heapUsed') => fmt((r.peak[k] - r.before[k]) / MiB);
    console.log(
      `  the CSV ${fmt(full.csvMiB / small.csvMiB, 1)}x larger; the gateway's peak growth RSS +${growth(full, 'rss')} MiB against +${growth(small, 'rss')} MiB, ` +
        `heapUsed +${growth(full, 'heapUsed')} MiB against +${growth(small, 'heapUsed')} MiB`,
    );
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
  /** The gateway's memory just before the upload, and its peaks during it (bytes). */
  before: MemoryPeaks;
  peak: MemoryPeaks;
  failures: string[];
}

/** One campaign, its audience of `rows` rows streamed; the gateway's memory sampled by its probe meanwhile. */
async function upload(
  url: string,
  seed: { apiKey: string; botId: string; templateId: string; senderNumber: string },
  gateway: ChildProcess,
  rows: number,
  db: pg.Client,
  snapshots: boolean,
): Promise<Upload> {
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

  if (snapshots) console.log(`  heap snapshot before: ${(await probe(gateway, 'snapshot', 'upload-before')).file}`);
  const sampling = rows === ROWS && !!process.env.BENCH_HEAP_SAMPLING;
  if (sampling) await probe(gateway, 'sampling-start');
  const before = (await probe(gateway, 'reset')).peaks!;
  const body = csvBody(rows);
  // Half-way through, one snapshot of what the gateway holds mid-upload (it stops the gateway for a while).
  let snapshot: Promise<unknown> | undefined;
  const watcher = snapshots
    ? setInterval(() => {
        if (snapshot || body.made() < rows / 2) return;
        snapshot = probe(gateway, 'snapshot', 'upload-half').then((r) => console.log(`  heap snapshot half-way: ${r.file}`));
      }, 100)
    : undefined;
  const started = process.hrtime.bigint();
  const init: RequestInit & { duplex: 'half' } = { method: 'PUT', headers: { ...headers, 'content-type': 'text/csv' }, body: body.stream, duplex: 'half' };
  const res = await fetch(`${url}/v1/bots/${seed.botId}/campaigns/${id}/audience/csv`, init);
  const answer = (await res.json()) as { rows?: number; valid?: number; message?: string };
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(watcher);
  await snapshot;
  const peak = (await probe(gateway, 'report')).peaks!;
  if (sampling) {
    const { file, top } = await probe(gateway, 'sampling-stop', 'upload');
    console.log(`  allocation sites of what reached V8's old generation during the upload (alive or freed by a full GC; ${file}):`);
    for (const t of top ?? []) console.log(`    ${fmt(t.MiB, 1)} MiB  ${t.site}`);
  }

  const failures: string[] = [];
  const { rows: staged } = await db.query<{ n: string }>({ text: `SELECT count(*) AS n FROM campaign_recipients WHERE campaign_id = $1 AND status = 'pending'`, values: [id] });
  if (res.status !== 200) failures.push(`upload of ${rows} answered ${res.status}: ${answer.message}`);
  else if (answer.rows !== rows || answer.valid !== rows) failures.push(`the answer counted ${answer.rows} rows, ${answer.valid} valid (expected ${rows})`);
  if (Number(staged[0].n) !== rows) failures.push(`the ledger holds ${staged[0].n} pending recipients (expected ${rows})`);
  return { seconds, csvMiB: body.bytes() / MiB, before, peak, failures };
}

runBench(main);
