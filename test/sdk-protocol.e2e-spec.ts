import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadVectors, mismatch, runVector } from '../tools/sdk-protocol/run-vectors.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, seedSdkBot } from './sdk-support.js';

const vectors = loadVectors(join(process.cwd(), 'test/sdk-protocol/vectors'));
const live = vectors.filter((v) => v.kind === 'live');

/** Every live conformance vector of docs/sdk-protocol.md against the gateway, as a native SDK's runner would run them. */
describe('the SDK wire protocol: conformance vectors against a live gateway', () => {
  // A webhook URL that answers nothing: app → bot events are queued (202), their calls fail and retry unseen.
  const stack = useStack({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  let bot: SdkBot;

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway, 'http://127.0.0.1:9/webhook');
  });

  it('has live vectors to run', () => {
    expect(live.map((v) => v.file)).toEqual(expect.arrayContaining(['10-session-start.json', '40-stream-events.json', '50-stream-refusals.json']));
  });

  it.each(live.map((v) => [v.file, v] as const))('%s', async (_file, vector) => {
    await runVector(vector, { url: stack.url, botId: bot.botId, apiKey: bot.apiKey });
  });

  it('runs as a script against a gateway named by its URL (built into dist/ by npm run build)', async () => {
    const child = spawn(process.execPath, ['dist/tools/sdk-protocol/conformance.js', '--url', stack.url, '--bot', bot.botId, '--api-key', bot.apiKey], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(out).toContain(`${live.length} of ${live.length} live vectors passed`);
    expect(out).toContain('ok   40-stream-events.json');
    expect(code).toBe(0);
  });

  it('fails a vector the gateway does not meet, naming the step', async () => {
    const wrong = {
      name: 'wrong on purpose',
      kind: 'live' as const,
      steps: [{ do: 'http' as const, method: 'POST', path: '/v1/bots/{botId}/sessions', body: { authToken: '{token}', payload: {}, version: 2 }, expect: { status: 418 } }],
    };
    await expect(runVector(wrong, { url: stack.url, botId: bot.botId, apiKey: bot.apiKey })).rejects.toThrow(/wrong on purpose, step 1 \(http\): expected status 418, got 201/);
    expect(mismatch({ a: { $type: 'string' } }, { a: 1 })).toBe('$.a: expected a string, got 1');
    expect(mismatch({ a: { $absent: true } }, { a: 1 })).toBe('$.a: expected absent, got 1');
  });
});
