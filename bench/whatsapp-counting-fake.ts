// The loopback WhatsApp Cloud API of `npm run bench:dispatch`, forked by bench/dispatch.ts so it does not
// share the worker's CPU. It is the platform's WhatsAppCloudSandbox with recording off (memory stays flat
// over 50,000 messages); it only counts answers, checks the bearer token against BENCH_EXPECTED_BEARER,
// keeps the first body of a run (to compare the two workers' JSON), and tells the parent when the
// `total`-th message was accepted (the "last delivery" time of a run).
//
// Parent → child: {type:'reset'} | {type:'expect', total} | {type:'stats'} | {type:'stop'}
// Child → parent: {type:'ready', baseUrl} | {type:'reached', at, accepted} | {type:'stats', ...FakeStats}
import 'reflect-metadata';
import { ServerResponse } from 'node:http';
import { RecordedRequest, WhatsAppCloudSandbox } from '@platform/sandbox';

export interface FakeStats {
  accepted: number;
  rejected: number;
  wrongBearer: number;
  firstPath?: string;
  firstBody?: string;
}

export type FakeRequest = { type: 'reset' } | { type: 'expect'; total: number } | { type: 'stats' } | { type: 'stop' };

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
export const nowMs = () => performance.timeOrigin + performance.now();

class CountingWhatsAppSandbox extends WhatsAppCloudSandbox {
  stats: FakeStats = { accepted: 0, rejected: 0, wrongBearer: 0 };
  expect?: number;

  constructor(private readonly bearer: string) {
    super();
    this.record = false;
  }

  protected override handle(req: RecordedRequest, res: ServerResponse): void {
    if (req.headers.authorization !== `Bearer ${this.bearer}`) this.stats.wrongBearer++;
    if (this.stats.firstBody === undefined) {
      this.stats.firstBody = req.rawBody;
      this.stats.firstPath = req.path;
    }
    super.handle(req, res);
    if (res.statusCode !== 200) {
      this.stats.rejected++;
      return;
    }
    if (++this.stats.accepted === this.expect) process.send!({ type: 'reached', at: nowMs(), accepted: this.stats.accepted });
  }
}

async function main(): Promise<void> {
  const fake = new CountingWhatsAppSandbox(process.env.BENCH_EXPECTED_BEARER ?? '');
  await fake.listen(0, '127.0.0.1');
  process.on('message', (msg: FakeRequest) => {
    if (msg.type === 'reset') {
      fake.stats = { accepted: 0, rejected: 0, wrongBearer: 0 };
      fake.expect = undefined;
    } else if (msg.type === 'expect') {
      fake.expect = msg.total;
      if (fake.stats.accepted >= msg.total) process.send!({ type: 'reached', at: nowMs(), accepted: fake.stats.accepted });
    } else if (msg.type === 'stats') {
      process.send!({ type: 'stats', ...fake.stats });
    } else if (msg.type === 'stop') {
      void fake.close().then(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0)); // the parent went away
  process.send!({ type: 'ready', baseUrl: `${fake.baseUrl}/v21.0` });
}

if (process.send) void main();
