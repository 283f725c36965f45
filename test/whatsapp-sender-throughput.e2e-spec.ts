import { runCli } from '../apps/cli/src/run-cli.js';
import { createTestEnv } from '@platform/testing';
import { sqlRows } from './push-support.js';

/** The operator CLI sets a sender's throughput on creation and later; out-of-range values are refused. */
describe('operator CLI: sender throughput', () => {
  let env: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
    const lines: string[] = [];
    const code = await runCli(argv, (l) => lines.push(l), env);
    return { code, out: lines.join('\n') };
  }
  const id = (out: string) => /created: ([0-9a-f-]{36})/.exec(out)![1];
  const throughputOf = async (sender: string) => (await sqlRows<{ throughput: number }>(env.DATABASE_URL, 'SELECT throughput FROM channel_senders WHERE id = $1', [sender]))[0]!.throughput;

  it('creates with --throughput, defaults to 80, and changes it with sender set-throughput', async () => {
    const bot = id((await cli('bot', 'create', '--name', 'Paced bot')).out);
    process.env.WHATSAPP_ACCESS_TOKEN_PACED = 'EAAG-paced';
    const fast = await cli('sender', 'create', '--bot', bot, '--number', '+15550003333', '--phone-number-id', '1066', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_PACED', '--throughput', '200');
    expect(fast).toMatchObject({ code: 0, out: expect.stringContaining('200 messages/s') });
    const plain = id((await cli('sender', 'create', '--bot', bot, '--number', '+15550004444', '--phone-number-id', '1067', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_PACED')).out);
    expect(await throughputOf(plain)).toBe(80);

    expect(await cli('sender', 'set-throughput', '--bot', bot, '--sender', plain, '--throughput', '20')).toMatchObject({ code: 0 });
    expect(await throughputOf(plain)).toBe(20);
    expect(await cli('sender', 'set-throughput', '--bot', bot, '--sender', plain, '--throughput', '0')).toMatchObject({ code: 2 });
    expect(await cli('sender', 'set-throughput', '--bot', bot, '--sender', plain, '--throughput', '1.5')).toMatchObject({ code: 2 });
    expect(await throughputOf(plain)).toBe(20);
  });
});
