// Bench-only: loaded into a process under test with `node --import dist/bench/memory-probe.js` (never by the
// platform itself, so the production API has no memory endpoint). Samples process.memoryUsage() and V8's
// heap spaces every 20 ms and answers the bench over the IPC channel: { probe: 'reset' } starts new peaks,
// { probe: 'report' } is answered with the peaks since the last reset. BENCH_HEAP_SNAPSHOT=1: { probe:
// 'snapshot', label } writes a heap snapshot to .local/profiles/ and answers its file name. { probe: 'sampling-start' }
// and { probe: 'sampling-stop', label } run V8's sampling heap profiler in between, counting also what a full GC
// freed (not what a young-generation GC freed): what survived to the old generation and died there, with what
// is still alive; the answer is the top allocation sites by bytes, the profile written to .local/profiles/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

export interface MemoryPeaks {
  /** Peaks in bytes since the last reset. */
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Peak committed size of each V8 heap space (new_space, old_space, large_object_space, ...), bytes. */
  spaces: Record<string, number>;
  samples: number;
}

function empty(): MemoryPeaks {
  return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0, spaces: {}, samples: 0 };
}

let peaks = empty();
let session: Session | undefined;

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Bytes by allocation site (function, file and line), largest first. */
function topSites(head: ProfileNode, n: number): Array<{ site: string; MiB: number }> {
  const bySite = new Map<string, number>();
  const walk = (node: ProfileNode) => {
    const f = node.callFrame;
    const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/dist\//, 'dist/')}:${f.lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(head);
  return [...bySite.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([site, bytes]) => ({ site, MiB: Math.round((bytes / 1024 / 1024) * 10) / 10 }));
}

function sample(): void {
  const m = process.memoryUsage();
  peaks.rss = Math.max(peaks.rss, m.rss);
  peaks.heapTotal = Math.max(peaks.heapTotal, m.heapTotal);
  peaks.heapUsed = Math.max(peaks.heapUsed, m.heapUsed);
  peaks.external = Math.max(peaks.external, m.external);
  peaks.arrayBuffers = Math.max(peaks.arrayBuffers, m.arrayBuffers);
  for (const s of getHeapSpaceStatistics()) peaks.spaces[s.space_name] = Math.max(peaks.spaces[s.space_name] ?? 0, s.space_size);
  peaks.samples++;
}

if (process.send) {
  // Neither the timer nor the channel keeps the process alive: it stops when its own work does.
  setInterval(sample, 20).unref();
  process.on('message', (msg: { probe?: string; label?: string }) => {
    if (msg?.probe === 'reset') {
      peaks = empty();
      sample();
      process.send!({ probe: 'reset', peaks });
    } else if (msg?.probe === 'report') {
      sample();
      process.send!({ probe: 'report', peaks });
    } else if (msg?.probe === 'sampling-start') {
      session = new Session();
      session.connect();
      session.post('HeapProfiler.startSampling', { samplingInterval: 16 * 1024, includeObjectsCollectedByMajorGC: true } as object, () => process.send!({ probe: 'sampling-start' }));
    } else if (msg?.probe === 'sampling-stop' && session) {
      session.post('HeapProfiler.stopSampling', (err, result) => {
        const profile = (result as { profile: { head: ProfileNode } } | undefined)?.profile;
        session?.disconnect();
        session = undefined;
        if (err || !profile) return void process.send!({ probe: 'sampling-stop', error: String(err) });
        mkdirSync('.local/profiles', { recursive: true });
        const file = `.local/profiles/${msg.label ?? 'upload'}-${Date.now()}.heapprofile`;
        writeFileSync(file, JSON.stringify(profile));
        process.send!({ probe: 'sampling-stop', file, top: topSites(profile.head, 25) });
      });
    } else if (msg?.probe === 'snapshot' && process.env.BENCH_HEAP_SNAPSHOT) {
      mkdirSync('.local/profiles', { recursive: true });
      process.send!({ probe: 'snapshot', file: writeHeapSnapshot(`.local/profiles/${msg.label ?? 'heap'}-${Date.now()}.heapsnapshot`) });
    }
  });
  // After the listener (adding one refs the channel again).
  process.channel?.unref();
}
