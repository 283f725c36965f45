import { connect } from 'node:net';
import { seedBotAdmin } from '@platform/testing';
import { AppProcess, httpGet, startAppProcess } from './app-process.js';
import { reconnectingClients } from './reconnecting-clients.js';
import { RawStream, seedSdkBot, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** Opens the message log's Server-Sent Events stream; resolves once its headers came, with a promise of its end. */
async function openMessageStream(url: string): Promise<{ ended: Promise<string> }> {
  const res = await httpGet(url, { headers: { accept: 'text/event-stream' } });
  if (res.statusCode !== 200) throw new Error(`stream answered ${res.statusCode}`);
  let text = '';
  res.on('data', (c: Buffer) => (text += c));
  return { ended: new Promise((done) => res.on('close', () => done(text))) };
}

/**
 * SIGTERM with SDK WebSockets and console event streams open, whose clients reconnect as soon as
 * theirs ends: the gateway ends them (the WebSocket with 1001, so the SDK reconnects elsewhere), lets
 * none back in, closes a connection a browser opened ahead of need and never used, and exits well
 * within its 10 s, not ended by its own bound.
 */
describe('gateway shutdown with open streams', () => {
  const stack = useStack({ seed: true }, 120_000);
  let gateway: AppProcess;
  afterAll(() => gateway?.kill(), 30_000);

  it('ends the WebSocket and the event stream and exits within its bound', async () => {
    const bot = await seedSdkBot(stack.gateway);
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    gateway = await startAppProcess('dist/apps/gateway/src/main.js', stack.env);

    const { streamUrl } = await startSession(gateway.url, bot.botId, 'shutdown_user');
    const socket = await RawStream.connect(streamUrl, 'shutdown_user');
    const ticket = await fetch(`${gateway.url}/v1/bots/${stack.seed.botId}/messages/stream-ticket`, { method: 'POST', headers: { authorization: `Bearer ${admin.accessToken}` } });
    expect(ticket.status).toBe(201);
    const sse = await openMessageStream(`${gateway.url}${((await ticket.json()) as { url: string }).url}`);

    // Clients that come straight back when their stream ends, as the SDK and the console do.
    const returning = reconnectingClients(gateway.url, streamUrl, 'returning_user', `${gateway.url}/v1/bots/${stack.seed.botId}/messages/stream-ticket`, admin.accessToken);
    await new Promise((r) => setTimeout(r, 1_000));

    // A connection opened and never used, as browsers open ahead of need.
    const silent = connect(gateway.port, '127.0.0.1');
    silent.on('error', () => undefined);
    await new Promise((r) => silent.once('connect', r));

    const started = Date.now();
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exited;
    const ms = Date.now() - started;
    returning.stop();
    silent.destroy();

    expect(await socket.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await sse.ended).toContain('the server is shutting down');
    expect(gateway.output()).not.toContain('shutdown did not finish');
    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    // Not a timing bound of the API: the app's own 10 s bound, which would end it with exit code 1.
    expect(ms).toBeLessThan(10_000);
  }, 120_000);
});
