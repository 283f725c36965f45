import { mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@platform/local-infra';
import { runCli } from '../apps/cli/src/run-cli.js';
import { writeLocalStack } from '../apps/cli/src/local-stack.js';
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

  it('prints one line per failure, without a stack: a duplicate sender, a malformed or placeholder id', async () => {
    const bot = id((await cli('bot', 'create', '--name', 'Dup bot')).out);
    process.env.WHATSAPP_ACCESS_TOKEN_TEST = 'EAAG-cli-token';
    const sender = ['sender', 'create', '--bot', bot, '--number', '+15550003333', '--phone-number-id', '1066', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_TEST'];
    expect(await cli(...sender)).toMatchObject({ code: 0 });
    expect(await cli(...sender)).toEqual({ code: 1, out: 'error: a sender with this number already exists for this bot' });

    expect(await cli('key', 'revoke', '--bot', bot, '--key', '12345')).toEqual({ code: 2, out: 'error: --key "12345" is not an id: give the UUID from `key list`' });
    expect(await cli('key', 'create', '--bot', '<bot-id>', '--name', 'ci')).toEqual({ code: 2, out: 'error: --bot is a placeholder (<bot-id>): give the UUID from `bot list`' });
    // A placeholder phone-number id is refused before it is stored (it would fail every send).
    expect(await cli('sender', 'create', '--bot', bot, '--number', '+15550004444', '--phone-number-id', '<PHONE_NUMBER_ID>', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_TEST')).toEqual({
      code: 2,
      out: 'error: --phone-number-id must be the numeric phone-number id from WhatsApp Manager (got "<PHONE_NUMBER_ID>")',
    });
    expect((await cli('sender', 'create', '--bot', bot, '--number', '+15550004444', '--phone-number-id', '1067', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_TEST')).code).toBe(0);
  });

  describe('run in a checkout where `npm run up` ran', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-local-'));
    const saved = process.env.UP_LOCAL_DIR;
    beforeAll(() => (process.env.UP_LOCAL_DIR = dir));
    afterAll(() => {
      if (saved === undefined) delete process.env.UP_LOCAL_DIR;
      else process.env.UP_LOCAL_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    });

    /** The CLI as an operator runs it: no env of its own (process.env has no DATABASE_URL in tests). */
    async function bareCli(...argv: string[]) {
      const lines: string[] = [];
      const notes: string[] = [];
      const code = await runCli(
        argv,
        (l) => lines.push(l),
        {},
        (l) => notes.push(l),
      );
      return { code, out: lines.join('\n'), notes };
    }

    it("finds the local stack's database, keys and settings by itself (.local/stack.json, .local/encryption-keys)", async () => {
      expect(process.env.DATABASE_URL).toBeUndefined();
      // Without them it cannot know the database, and says so in one line.
      expect(await bareCli('bot', 'list')).toEqual({
        code: 1,
        out: 'error: Invalid configuration: DATABASE_URL is required; REDIS_URL is required; ENCRYPTION_KEYS is required (in a checkout, run `npm run up` once: the CLI then finds its settings)',
        notes: [],
      });

      // What `up` writes: the stack's settings (mode 0600) and, beside them, its keyring.
      const file = writeLocalStack({ ...stack.env, ENCRYPTION_KEYS: 'never:written' }, true, dir);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      writeFileSync(join(dir, 'encryption-keys'), stack.env.ENCRYPTION_KEYS, { mode: 0o600 });

      const created = await bareCli('bot', 'create', '--name', 'Local bot');
      expect(created).toMatchObject({ code: 0, notes: [`(the local stack's settings: ${join(dir, 'stack.json')}, ${join(dir, 'encryption-keys')})`] });
      const bot = id(created.out);
      // The same database the stack's own CLI (with DATABASE_URL) sees, and the same keyring: a sender's token sealed here opens there.
      expect((await cli('bot', 'list')).out).toContain(bot);
      process.env.WHATSAPP_ACCESS_TOKEN_TEST = 'EAAG-local';
      expect(await bareCli('sender', 'create', '--bot', bot, '--number', '+15550005555', '--phone-number-id', '1068', '--access-token-env', 'WHATSAPP_ACCESS_TOKEN_TEST')).toMatchObject({ code: 0 });
    });

    it("says in one line that the local stack is not running; an operator's own DATABASE_URL is used instead of it", async () => {
      writeLocalStack({ ...stack.env, DATABASE_URL: `postgresql://platform:x@127.0.0.1:${await freePort()}/platform` }, true, dir);
      writeFileSync(join(dir, 'encryption-keys'), stack.env.ENCRYPTION_KEYS, { mode: 0o600 });
      const listed = await bareCli('bot', 'list');
      expect(listed).toEqual({ code: 1, out: 'error: cannot reach the database at DATABASE_URL (is `npm run up` running, or is DATABASE_URL right?)', notes: [expect.stringContaining('stack.json')] });
      expect(await cli('bot', 'list')).toMatchObject({ code: 0 });
    });
  });
});
