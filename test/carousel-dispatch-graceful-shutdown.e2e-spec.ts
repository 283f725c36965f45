import { ChildProcess, spawn } from 'node:child_process';
import { createServer, IncomingMessage } from 'node:http';
import { AddressInfo } from 'node:net';
import { MessageRepository } from '@platform/database';
import { triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';

const ANSWER_AFTER_MS = 1500;
const WAMID = 'wamid.graceful-shutdown';

/** A Cloud API send endpoint that answers success only after ANSWER_AFTER_MS, so a send is in flight when the worker is told to stop. */
function slowCloudApi(received: IncomingMessage[]) {
  const server = createServer((req, res) => {
    received.push(req);
    req.resume();
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [], messages: [{ id: WAMID, message_status: 'accepted' }] }));
    }, ANSWER_AFTER_MS);
  });
  return {
    url: '',
    listen(): Promise<void> {
      return new Promise((resolve) => server.listen(0, '127.0.0.1', () => ((this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`), resolve())));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** SIGTERM drains the worker: a send in flight finishes and is recorded before the database pool closes. */
describe('carousel dispatch: graceful shutdown of a worker mid-send', () => {
  const received: IncomingMessage[] = [];
  const api = slowCloudApi(received);
  const stack = useStack({ servers: [api], seed: true, env: () => ({ WHATSAPP_API_BASE_URL: `${api.url}/v21.0`, LOG_LEVEL: 'info' }) });
  let child: ChildProcess | undefined;
  stack.defer(() => child?.kill('SIGKILL'));

  it('records the in-flight message as sent before exiting, and logs no error', async () => {
    let output = '';
    child = spawn(process.execPath, ['dist/apps/channel-worker/src/main.js'], { env: { ...process.env, ...stack.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (output += c));
    child.stderr!.on('data', (c: Buffer) => (output += c));
    const exited = new Promise<string>((resolve) => child!.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)));

    const msgId = await triggerCarousel(stack.url, stack.seed);
    await until(async () => (received.length > 0 ? true : undefined), 20_000, 'the worker sending the message');
    child.kill('SIGTERM'); // the provider has the request and answers in ANSWER_AFTER_MS

    expect(await exited).toBe('SIGTERM'); // Nest's shutdown hooks close the app, then re-raise the signal
    expect(received).toHaveLength(1);
    const message = await stack.gateway.get(MessageRepository).findForBot(stack.seed.botId, msgId);
    expect(message).toMatchObject({ status: 'sent', attempts: 1, providerMessageId: WAMID });
    expect(output).not.toMatch(/pool after calling end|"level":50|ERROR/);
  }, 120_000);
});
