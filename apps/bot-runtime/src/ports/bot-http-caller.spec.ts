import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BotRuntimeEnv, BotRuntimeServerEnv } from '@platform/config';
import { BotHttpCaller, MAX_HTTP_ANSWER_BYTES } from './bot-http-caller.js';

/** The http nodes' caller against a loopback server: the address rule, the timeout, the answer's size. */
describe('BotHttpCaller', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000).unref();
        if (req.url === '/big') return void res.end('x'.repeat(MAX_HTTP_ANSWER_BYTES + 1));
        if (req.url === '/text') return void res.end('plain words');
        res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ joke: 'a joke', echo: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  const caller = (allowPrivate: boolean) => new BotHttpCaller({ BOT_HTTP_TIMEOUT_MS: 5000 } as BotRuntimeEnv, { BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: allowPrivate } as BotRuntimeServerEnv);

  it('calls with the method, headers and body, and answers the status and the parsed JSON', async () => {
    const http = caller(true);
    const outcome = await http.call({ method: 'POST', url: `${base}/hook`, headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 1000 });
    expect(outcome).toEqual({ ok: true, status: 200, body: { joke: 'a joke', echo: '{"a":1}' } });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/hook', auth: 'Bearer s3cret', body: '{"a":1}' });
    expect(await http.call({ method: 'GET', url: `${base}/missing`, headers: {}, timeoutMs: 1000 })).toMatchObject({ ok: true, status: 404 });
    expect(await http.call({ method: 'GET', url: `${base}/text`, headers: {}, timeoutMs: 1000 })).toEqual({ ok: true, status: 200, body: 'plain words' });
    await http.onApplicationShutdown();
  });

  it('refuses loopback and private addresses unless allowed, before connecting, naming neither the URL nor its secrets', async () => {
    const http = caller(false);
    const before = seen.length;
    for (const url of [`${base}/hook?token=s3cret`, 'http://localhost:1/x', 'http://[::1]:1/x', 'http://10.0.0.1/x']) {
      const outcome = await http.call({ method: 'GET', url, headers: {}, timeoutMs: 1000 });
      expect(outcome).toEqual({ ok: false, error: 'the host is not a public address' });
    }
    expect(seen.length).toBe(before);
    await http.onApplicationShutdown();
  });

  it('fails a call past its timeout, an answer over the size limit, and a URL that is not http(s)', async () => {
    const http = caller(true);
    expect(await http.call({ method: 'GET', url: `${base}/slow`, headers: {}, timeoutMs: 200 })).toEqual({ ok: false, error: 'no answer within 200 ms' });
    expect(await http.call({ method: 'GET', url: `${base}/big`, headers: {}, timeoutMs: 1000 })).toEqual({ ok: false, error: `the answer is larger than ${MAX_HTTP_ANSWER_BYTES} bytes` });
    expect(await http.call({ method: 'GET', url: 'file:///etc/passwd', headers: {}, timeoutMs: 1000 })).toMatchObject({ ok: false, error: expect.stringContaining('only http and https') });
    expect(await http.call({ method: 'GET', url: 'not a url', headers: {}, timeoutMs: 1000 })).toEqual({ ok: false, error: 'the URL is not valid' });
    await http.onApplicationShutdown();
  });
});
