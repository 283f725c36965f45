import { connect } from 'node:net';
import pg from 'pg';
import { storableJson } from '../libs/database/src/repositories/storable-json.js';
import { AppProcess, startAppProcess } from './app-process.js';
import { useStack } from './e2e-stack.js';

const GATEWAY = 'dist/apps/gateway/src/main.js';

/** Sends `request` as it is over a fresh socket and returns everything the server wrote before it closed. */
function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(30_000, () => socket.destroy(new Error(`no answer; got so far: ${received}`)));
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('error', (err) => (received ? resolve(received) : reject(err)));
    socket.on('close', () => resolve(received));
    socket.write(request);
  });
}

function parseRaw(raw: string): { status: number; headers: string; body: unknown } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) };
}

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/**
 * The built gateway answers what never reaches a route (bodies nested too deep, malformed or
 * oversized HTTP) with the platform's `{message,status:"error"}` body, on every route.
 */
describe('gateway edge: bad input', () => {
  const stack = useStack({ gateway: false }, 120_000);
  let gateway: AppProcess;

  beforeAll(async () => {
    gateway = await startAppProcess(GATEWAY, { ...stack.env, WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-1', WHATSAPP_APP_SECRET: 'app-secret-1' });
  }, 120_000);
  afterAll(() => gateway?.kill(), 30_000);

  const routes = [
    '/v1/auth/login',
    '/v1/auth/refresh',
    '/api/engagements/notifications/v2/push?bot=b1',
    '/webhooks/whatsapp',
    '/v1/bots/b1/sessions',
    '/v1/bots/b1/sessions/s1/events',
    '/v1/bots/b1/events',
  ];

  it.each(routes)(
    'a JSON body nested 3,000 and 20,000 levels deep to %s is a 400 naming the limit',
    async (path) => {
      for (const body of [deepArray(3000), deepObject(3000), deepArray(20_000)]) {
        const res = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect({ status: res.status, body: await res.json() }).toEqual({
          status: 400,
          body: { message: 'the JSON body is nested deeper than 100 levels', status: 'error' },
        });
      }
    },
    60_000,
  );

  it.each(routes.filter((path) => path !== '/webhooks/whatsapp'))(
    'text Postgres cannot store (an escaped NUL, an unpaired surrogate) sent to %s is a 400 naming the field; an escaped emoji is not',
    async (path) => {
      const post = async (body: string) => {
        const res = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return { status: res.status, body: (await res.json()) as { message: string } };
      };
      expect(await post(String.raw`{"payload":{"userName":"Zo\u0000"}}`)).toEqual({
        status: 400,
        body: { message: 'payload.userName contains a NUL character (\\u0000), which cannot be stored', status: 'error' },
      });
      expect(await post(String.raw`{"text":"a\ud800b"}`)).toEqual({
        status: 400,
        body: { message: 'text contains an unpaired UTF-16 surrogate (\\ud800), which is not a character', status: 'error' },
      });
      // The route's own answer (401 without a key, 400 for its own reasons), not the parser's.
      for (const body of [String.raw`{"text":"\ud83d\ude00"}`, String.raw`{"text":"\\u0000"}`]) {
        expect((await post(body)).body.message).not.toMatch(/NUL|surrogate/);
      }
    },
    60_000,
  );

  it('bot data with a NUL or an unpaired surrogate is written to jsonb as U+FFFD (JSON.stringify alone is refused)', async () => {
    const db = new pg.Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      const value = { answer: 'a\u0000b', lone: 'x\uD800', emoji: '\uD83D\uDE00', literal: '\\u0000' };
      const { rows } = await db.query<{ v: unknown }>('SELECT $1::jsonb AS v', [storableJson(value)]);
      expect(rows[0]!.v).toEqual({ answer: 'a\uFFFDb', lone: 'x\uFFFD', emoji: '\uD83D\uDE00', literal: '\\u0000' });
      await expect(db.query('SELECT $1::jsonb AS v', [JSON.stringify(value)])).rejects.toThrow(/Unicode escape|invalid input syntax for type json/);
    } finally {
      await db.end();
    }
  }, 120_000);

  it('a body nested within the limit still reaches the route (its own 400 or 401)', async () => {
    const res = await fetch(`${gateway.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"email":${deepArray(50)}}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).not.toContain('nested deeper');
  }, 120_000);

  it('malformed headers get a 400 with the platform body', async () => {
    const raw = await rawExchange(gateway.port, 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    const res = parseRaw(raw);
    expect(res.status).toBe(400);
    expect(res.headers).toContain('content-type: application/json');
    expect(res.body).toEqual({ message: 'The request is not well-formed HTTP', status: 'error' });
  }, 120_000);

  it('headers larger than Node accepts get a 431 with the platform body', async () => {
    const raw = await rawExchange(gateway.port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    const res = parseRaw(raw);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ message: 'The request headers are too large', status: 'error' });
  }, 120_000);

  it('a body over 1 MB gets a 413, an unknown route a 404, an unsupported type a 400, bad JSON a 400: all with the platform body', async () => {
    // Announced, not sent: the gateway answers from the header (a client still writing would meet the closed socket).
    const big = parseRaw(await rawExchange(gateway.port, 'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\nConnection: close\r\n\r\n{'));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ status: 'error', message: expect.any(String) });
    const missing = await fetch(`${gateway.url}/no/such/route`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 'error', message: expect.any(String) });
    const wrongMethod = await fetch(`${gateway.url}/v1/auth/login`, { method: 'PATCH' });
    expect(wrongMethod.status).toBe(404);
    expect(await wrongMethod.json()).toMatchObject({ status: 'error', message: expect.any(String) });
    const plain = await fetch(`${gateway.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ status: 'error', message: expect.stringContaining('text/plain') });
    const broken = await fetch(`${gateway.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ status: 'error', message: expect.any(String) });
  }, 120_000);
});
