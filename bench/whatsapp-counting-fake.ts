// The loopback WhatsApp Cloud API of `npm run bench:dispatch` and `npm run bench:pacing`, forked by them so
// it does not share the workers' CPU. It is the platform's WhatsAppCloudSandbox with recording off (memory
// stays flat over 50,000 messages); it only counts answers, checks the bearer token against
// BENCH_EXPECTED_BEARER, keeps the first body of a run (to compare the two workers' JSON), counts the
// messages accepted per phone-number id in each wall-clock second (Date.now(), the clock Redis' TIME
// reads too), and tells the parent when the `total`-th message was accepted (the "last delivery" time of a run).
//
// Parent → child: {type:'reset'} | {type:'expect', total} | {type:'stats'} | {type:'arrivals'} | {type:'stop'}
// Child → parent: {type:'ready', baseUrl} | {type:'reached', at, accepted} | {type:'stats', ...FakeStats}
//                 | {type:'arrivals', byNumber: Record<phone-number id, NumberArrivals>}
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

/** Messages of one phone-number id the fake accepted: how many in each wall-clock second, and the first and last (ms since the epoch). */
export interface NumberArrivals {
  accepted: number;
  /** [second since the epoch, messages accepted in it], in order */
  perSecond: Array<[number, number]>;
  first: number;
  last: number;
}

export type FakeRequest = { type: 'reset' } | { type: 'expect'; total: number } | { type: 'stats' } | { type: 'arrivals' } | { type: 'stop' };

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
export const nowMs = () => performance.timeOrigin + performance.now();

class CountingWhatsAppSandbox extends WhatsAppCloudSandbox {
  stats: FakeStats = { accepted: 0, rejected: 0, wrongBearer: 0 };
  byNumber = new Map<string, { accepted: number; perSecond: Map<number, number>; first: number; last: number }>();
  expect?: number;

  constructor(private readonly bearer: string) {
    super();
    this.record = false;
  }

  protected override handle(req: RecordedRequest, res: ServerResponse): void {
    const at = Date.now(); // before the answer leaves, as the sandbox's own arrival time
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
    this.arrived(/^\/[^/]+\/([^/]+)\/messages$/.exec(req.path)?.[1] ?? '?', at);
    if (++this.stats.accepted === this.expect) process.send!({ type: 'reached', at: nowMs(), accepted: this.stats.accepted });
  }

  private arrived(phoneNumberId: string, at: number): void {
    let n = this.byNumber.get(phoneNumberId);
    if (!n) this.byNumber.set(phoneNumberId, (n = { accepted: 0, perSecond: new Map(), first: at, last: at }));
    n.accepted++;
    n.last = at;
    const second = Math.floor(at / 1000);
    n.perSecond.set(second, (n.perSecond.get(second) ?? 0) + 1);
  }

  arrivalsByNumber(): Record<string, NumberArrivals> {
    return Object.fromEntries([...this.byNumber].map(([id, n]) => [id, { accepted: n.accepted, first: n.first, last: n.last, perSecond: [...n.perSecond].sort((a, b) => a[0] - b[0]) }]));
  }
}

async function main(): Promise<void> {
  const fake = new CountingWhatsAppSandbox(process.env.BENCH_EXPECTED_BEARER ?? '');
  await fake.listen(0, '127.0.0.1');
  process.on('message', (msg: FakeRequest) => {
    if (msg.type === 'reset') {
      fake.stats = { accepted: 0, rejected: 0, wrongBearer: 0 };
      fake.byNumber.clear();
      fake.expect = undefined;
    } else if (msg.type === 'expect') {
      fake.expect = msg.total;
      if (fake.stats.accepted >= msg.total) process.send!({ type: 'reached', at: nowMs(), accepted: fake.stats.accepted });
    } else if (msg.type === 'stats') {
      process.send!({ type: 'stats', ...fake.stats });
    } else if (msg.type === 'arrivals') {
      process.send!({ type: 'arrivals', byNumber: fake.arrivalsByNumber() });
    } else if (msg.type === 'stop') {
      void fake.close().then(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0)); // the parent went away
  process.send!({ type: 'ready', baseUrl: `${fake.baseUrl}/v21.0` });
}

if (process.send) void main();
