// The parent's side of the forked WhatsApp fake (bench/whatsapp-counting-fake.ts), shared by the benchmarks that drain carousel messages into it.
import { ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FakeRequest, FakeStats, NumberArrivals } from './whatsapp-counting-fake.js';

/** A run fails when the fake has accepted nothing new for this long. */
const STALL_MS = 60_000;

export class WhatsAppFakeProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  /** Forks the fake, which expects `bearer` on every request. */
  static async start(bearer: string): Promise<WhatsAppFakeProcess> {
    const child = fork(fileURLToPath(new URL('./whatsapp-counting-fake.js', import.meta.url)), [], {
      env: { ...process.env, BENCH_EXPECTED_BEARER: bearer },
      stdio: 'inherit',
    });
    const ready = await new Promise<{ baseUrl: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { baseUrl: string }));
      child.once('exit', (code) => reject(new Error(`WhatsApp fake exited with code ${code}`)));
    });
    return new WhatsAppFakeProcess(child, ready.baseUrl);
  }

  /** The fake's process id (for its CPU time). */
  get pid(): number {
    return this.child.pid!;
  }

  private ask<T>(msg: FakeRequest, want: string): Promise<T> {
    return new Promise((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== want) return;
        this.child.off('message', on);
        resolve(m as T);
      };
      this.child.on('message', on);
      this.child.send(msg);
    });
  }

  reset(): void {
    this.child.send({ type: 'reset' } satisfies FakeRequest);
  }

  stats(): Promise<FakeStats> {
    return this.ask<FakeStats>({ type: 'stats' }, 'stats');
  }

  /** Messages accepted since the last reset, by phone-number id. */
  async arrivals(): Promise<Record<string, NumberArrivals>> {
    return (await this.ask<{ byNumber: Record<string, NumberArrivals> }>({ type: 'arrivals' }, 'arrivals')).byNumber;
  }

  /** Resolves with the time the `total`-th message since the last reset was accepted; fails on a stall or when a worker exits. */
  async reached(total: number, workers: ChildProcess[]): Promise<number> {
    const reached = this.ask<{ at: number }>({ type: 'expect', total }, 'reached');
    let last = -1;
    let lastChange = Date.now();
    for (;;) {
      const done = await Promise.race([reached, new Promise<undefined>((r) => setTimeout(r, 2_000))]);
      if (done) return done.at;
      const exited = workers.find((w) => w.exitCode !== null);
      if (exited) throw new Error(`worker exited with code ${exited.exitCode}`);
      const { accepted, rejected } = await this.stats();
      if (accepted !== last) {
        last = accepted;
        lastChange = Date.now();
      } else if (Date.now() - lastChange > STALL_MS) throw new Error(`stalled at ${accepted}/${total} accepted (${rejected} rejected)`);
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.send({ type: 'stop' } satisfies FakeRequest);
    await exited;
  }
}
