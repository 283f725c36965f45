import { Http2Server, ServerHttp2Stream, createServer } from 'node:http2';
import { AddressInfo } from 'node:net';
import type { PushEnv } from '@platform/config';
import { Http2Pool, Http2Response, NOT_SENT } from './http2-pool.js';
import { TransientPushError } from './transient-push.error.js';

/** An h2c server that holds every request until release() answers the oldest ones. */
class HoldingServer {
  readonly held: Array<{ stream: ServerHttp2Stream; body: string }> = [];
  maxOpen = 0;
  sessions = 0;
  private server?: Http2Server;
  url = '';

  constructor(private readonly maxConcurrentStreams?: number) {}

  async listen(): Promise<void> {
    this.server = createServer({ settings: { maxConcurrentStreams: this.maxConcurrentStreams } });
    this.server.on('session', (session) => {
      this.sessions++;
      session.on('error', () => undefined); // a pool shut down mid-request resets its connection
    });
    this.server.on('stream', (stream) => {
      stream.on('error', () => undefined);
      let body = '';
      stream.on('data', (c: Buffer) => (body += c.toString()));
      stream.on('end', () => {
        this.held.push({ stream, body });
        this.maxOpen = Math.max(this.maxOpen, this.held.length);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  release(n: number): void {
    for (const { stream, body } of this.held.splice(0, n)) {
      if (stream.destroyed) continue; // its client went away
      stream.respond({ ':status': 200 });
      stream.end(body);
    }
  }

  async waitHeld(n: number): Promise<void> {
    while (this.held.length < n) await new Promise((r) => setTimeout(r, 5));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      (this.server as unknown as { sessions?: Set<{ destroy(): void }> }).sessions?.forEach((s) => s.destroy());
    });
  }
}

describe.each([0, 1])('Http2Pool with %i sender threads', (threads) => {
  let server: HoldingServer;
  let pool: Http2Pool;

  beforeEach(async () => {
    server = new HoldingServer();
    await server.listen();
    pool = new Http2Pool({ FCM_MAX_IN_FLIGHT: 3, FCM_SENDER_THREADS: threads } as PushEnv);
  });

  afterEach(async () => {
    await pool.onApplicationShutdown();
    await server.close();
  });

  const send = (tokens: string[], extra: { holdMs?: () => number; cancelled?: () => boolean; timeoutMs?: number } = {}) => {
    const answers = new Map<number, Http2Response | Error>();
    pool.postMany({ origin: server.url, path: '/send', headers: {}, timeoutMs: extra.timeoutMs ?? 5000, parts: ['{"t":', '}'], tokens, onAnswer: (i, a) => answers.set(i, a), ...extra });
    return answers;
  };

  it('keeps at most FCM_MAX_IN_FLIGHT requests open and answers each token with its own response', async () => {
    const tokens = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const answers = send(tokens);
    await server.waitHeld(3);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.held).toHaveLength(3);
    while (answers.size < tokens.length) {
      server.release(server.held.length);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(server.maxOpen).toBe(3);
    tokens.forEach((t, i) => expect((answers.get(i) as Http2Response).body).toBe(`{"t":"${t}"}`));
  });

  it('sends nothing while holdMs says to wait, and answers NOT_SENT once cancelled', async () => {
    let hold = 60_000;
    let cancelled = false;
    const answers = send(['a', 'b', 'c', 'd'], { holdMs: () => hold, cancelled: () => cancelled });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.held).toHaveLength(0);
    hold = 0;
    cancelled = true;
    send(['wake']); // a new job makes the pool look at the queue again
    expect([...answers.values()]).toEqual([NOT_SENT, NOT_SENT, NOT_SENT, NOT_SENT]);
  });

  it('answers requests made after shutdown with a TransientPushError, without starting threads', async () => {
    send(['a']);
    await server.waitHeld(1);
    await pool.onApplicationShutdown();
    const late = send(['b', 'c']);
    await new Promise((r) => setImmediate(r));
    expect([...late.values()].map((a) => (a as Error).message)).toEqual(['push service shutting down', 'push service shutting down']);
    expect(server.held).toHaveLength(1);
    server.release(1);
  });

  it('answers a request FCM leaves unanswered with a TransientPushError after timeoutMs', async () => {
    const answers = send(['a'], { timeoutMs: 150 });
    while (answers.size === 0) await new Promise((r) => setTimeout(r, 20));
    expect(answers.get(0)).toBeInstanceOf(TransientPushError);
    expect((answers.get(0) as Error).message).toMatch(/within 150 ms/);
  });

  it("opens more sessions rather than exceed the server's concurrent streams per connection, before and after its SETTINGS", async () => {
    const limited = new HoldingServer(100); // FCM's limit
    await limited.listen();
    const wide = new Http2Pool({ FCM_MAX_IN_FLIGHT: 250, FCM_SENDER_THREADS: threads } as PushEnv);
    try {
      for (const round of [1, 2]) {
        const tokens = Array.from({ length: 250 }, (_, i) => `t${round}-${i}`);
        const answers = new Map<number, Http2Response | Error>();
        // Held until all 250 are open: on a loaded host that alone can take seconds, not what this test is about.
        wide.postMany({ origin: limited.url, path: '/send', headers: {}, timeoutMs: 60_000, parts: ['{"t":', '}'], tokens, onAnswer: (i, a) => answers.set(i, a) });
        await limited.waitHeld(250); // all open at once: none refused, none queued inside a session
        expect(limited.sessions).toBe(3);
        limited.release(250);
        while (answers.size < tokens.length) await new Promise((r) => setTimeout(r, 5));
        expect([...answers.values()].filter((a) => a instanceof Error)).toEqual([]);
      }
    } finally {
      await wide.onApplicationShutdown();
      await limited.close();
    }
  });
});
