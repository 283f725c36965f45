import { runCli } from '../apps/cli/src/run-cli.js';
import { useStack } from './e2e-stack.js';

/** The operator CLI provisions a bot end to end: the key it prints opens the trigger, and revoking it closes it. */
describe('operator CLI', () => {
  const stack = useStack();

  async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
    const lines: string[] = [];
    const code = await runCli(argv, (l) => lines.push(l), stack.env);
    return { code, out: lines.join('\n') };
  }
  const id = (out: string) => /created: ([0-9a-f-]{36})/.exec(out)![1];

  it('creates a bot, sender, template and key; lists and revokes the key', async () => {
    const bot = id((await cli('bot', 'create', '--name', 'Shop bot')).out);
    process.env.WHATSAPP_ACCESS_TOKEN_TEST = 'EAAG-cli-token';
    const sender = await cli('sender', 'create', '--bot', bot, '--number', '+15550002222', '--phone-number-id', '1065', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_TEST');
    expect(sender).toMatchObject({ code: 0, out: expect.stringContaining('+15550002222') });
    expect(sender.out).not.toContain('EAAG-cli-token');
    const template = id((await cli('template', 'create', '--bot', bot, '--name', 'promo', '--language', 'en_US', '--cards', '2')).out);

    const created = await cli('key', 'create', '--bot', bot, '--name', 'ci');
    const key = /^(bpk_\S+)$/m.exec(created.out)![1];
    const listed = await cli('key', 'list', '--bot', bot);
    expect(listed.out).toContain(key.slice(0, 12));
    expect(listed.out).not.toContain(key);
    expect(listed.out).toContain('live');

    const trigger = () =>
      fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${bot}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({
          userDetails: { number: '+919876543210' },
          notification: {
            templateId: template,
            type: 'whatsapp',
            sender: '+15550002222',
            params: { cards: [1, 2].map((i) => ({ media: { mediaLink: `https://cdn.example.com/${i}.jpg` } })) },
          },
        }),
      });
    expect((await trigger()).status).toBe(200);

    const keyId = /^([0-9a-f-]{36})\s/m.exec(listed.out)![1];
    expect(await cli('key', 'revoke', '--bot', bot, '--key', keyId)).toMatchObject({ code: 0 });
    expect((await trigger()).status).toBe(401);
    expect((await cli('key', 'list', '--bot', bot)).out).toContain('revoked');
  });

  it('refuses bad arguments with a usage message and exit code 2', async () => {
    expect(await cli('template', 'create', '--bot', '00000000-0000-0000-0000-000000000000', '--name', 'x', '--language', 'en', '--cards', '11')).toMatchObject({
      code: 2,
      out: expect.stringContaining('no bot'),
    });
    const bot = id((await cli('bot', 'create', '--name', 'b')).out);
    expect(await cli('template', 'create', '--bot', bot, '--name', 'x', '--language', 'en', '--cards', '11')).toMatchObject({
      code: 2,
      out: 'error: --cards must be an integer from 2 to 10',
    });
    expect(await cli('key', 'create', '--bot', bot)).toMatchObject({ code: 2, out: expect.stringContaining('--name is required') });
    expect(await cli('sender', 'create', '--bot', bot, '--number', '12', '--phone-number-id', '1')).toMatchObject({ code: 2 });
    expect(await cli('nonsense')).toMatchObject({ code: 2, out: expect.stringContaining('usage:') });
  });
});
