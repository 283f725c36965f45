import { connect, Socket } from 'node:net';
import Fastify, { FastifyInstance } from 'fastify';
import { HttpDrain } from './http-drain.js';

/** Collects what a kept-alive socket receives; `next()` waits for the next complete answer. */
class KeptAlive {
  private buffer = '';
  private waiter?: () => void;
  closed = false;

  constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => {
      this.buffer += c.toString();
      this.waiter?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
  }

  static open(port: number): Promise<KeptAlive> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new KeptAlive(socket)));
    });
  }

  get(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  }

  /** The next answer: its status line, headers (lower case) and body. */
  async next(): Promise<{ head: string; body: string }> {
    for (;;) {
      const match = /^(HTTP\/1\.1[^]*?)\r\n\r\n/.exec(this.buffer);
      const length = match ? Number(/content-length: (\d+)/i.exec(match[1])?.[1] ?? 0) : 0;
      if (match && this.buffer.length >= match[0].length + length) {
        const body = this.buffer.slice(match[0].length, match[0].length + length);
        this.buffer = this.buffer.slice(match[0].length + length);
        return { head: match[1].toLowerCase(), body };
      }
      if (this.closed) throw new Error(`closed; received: ${this.buffer}`);
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}

describe('HttpDrain', () => {
  let fastify: FastifyInstance;
  let drain: HttpDrain;
  let release: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let port: number;

  beforeAll(async () => {
    fastify = Fastify({ return503OnClosing: false });
    drain = new HttpDrain(fastify, { minMs: 50, maxMs: 200 });
    fastify.get('/slow', async () => (await released, { message: 'slow', status: 'success' }));
    fastify.get('/fast', async () => ({ message: 'fast', status: 'success' }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (fastify.server.address() as { port: number }).port;
  });

  afterAll(() => (release(), fastify.close()));

  it('refuses new connections, answers held ones with Connection: close, closes idle and never-used ones, then 503s with the platform body', async () => {
    const busy = await KeptAlive.open(port);
    const idle = await KeptAlive.open(port);
    const during = await KeptAlive.open(port);
    const silent = await KeptAlive.open(port);
    // Kept alive after an answer, and idle since.
    idle.get('/fast');
    await idle.next();
    busy.get('/slow');
    await new Promise((r) => setTimeout(r, 20));

    const drained = drain.drain();
    // A request over a connection it holds is still answered, and the connection closed after it.
    during.get('/fast');
    const duringAnswer = await during.next();
    expect(duringAnswer.head).toMatch(/^http\/1\.1 200/);
    expect(duringAnswer.head).toContain('connection: close');
    // New connections are refused.
    const attempt = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve('connected')));
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(attempt).toBe('ECONNREFUSED');

    await drained; // the slow request outlasted the bound
    await new Promise((r) => setTimeout(r, 20));
    expect(idle.closed).toBe(true);
    expect(silent.closed).toBe(true);
    release();
    expect((await busy.next()).head).toMatch(/^http\/1\.1 200/);
    busy.get('/fast');
    const late = await busy.next();
    for (const k of [busy, idle, during, silent]) k.socket.destroy();
    expect(late.head).toMatch(/^http\/1\.1 503/);
    expect(JSON.parse(late.body)).toEqual({ message: 'The server is shutting down; retry the request.', status: 'error' });
  });

  it('ends as soon as the last request in flight is answered, not at its bound', async () => {
    const server = Fastify({ return503OnClosing: false });
    const ownDrain = new HttpDrain(server, { minMs: 50, maxMs: 60_000 });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.get('/slow', async () => (await answered, { message: 'slow', status: 'success' }));
    server.get('/fast', async () => ({ message: 'fast', status: 'success' }));
    await server.listen({ port: 0, host: '127.0.0.1' });
    const client = await KeptAlive.open((server.server.address() as { port: number }).port);
    try {
      // Answered requests before it must not count as in flight.
      for (let i = 0; i < 3; i++) {
        client.get('/fast');
        await client.next();
      }
      client.get('/slow');
      await new Promise((r) => setTimeout(r, 20));
      let ended = false;
      const drained = ownDrain.drain().then(() => (ended = true));
      await new Promise((r) => setTimeout(r, 200));
      expect(ended).toBe(false); // the slow request is still in flight
      answer();
      expect((await client.next()).head).toMatch(/^http\/1\.1 200/);
      // Well inside the 60 s bound, however loaded the host.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the drain waited for its bound')), 20_000)));
      await Promise.race([drained, bound]).finally(() => clearTimeout(timer));
    } finally {
      client.socket.destroy();
      await server.close();
    }
  });
});
