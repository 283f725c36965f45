import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../apps/cli/src/run-cli.js';
import { PrismaService } from '@platform/database';
import { until } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** The campaign commands of the CLI, over the gateway's API with the bot's key: a CSV file streamed, a segment of the bot's WhatsApp users. */
describe('campaign CLI', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true });
  const dir = mkdtempSync(join(tmpdir(), 'campaign-cli-'));
  stack.defer(() => rmSync(dir, { recursive: true, force: true }));
  const fixed = (n: number) => Array.from({ length: n }, (_, i) => ({ mediaLink: { value: `https://cdn.example.com/${i}.jpg` } }));

  async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
    const lines: string[] = [];
    process.env.PLATFORM_API_KEY = stack.seed.apiKey;
    try {
      const code = await runCli([...argv, '--url', stack.url, '--bot', stack.seed.botId], (l) => lines.push(l), stack.env);
      return { code, out: lines.join('\n') };
    } finally {
      delete process.env.PLATFORM_API_KEY;
    }
  }
  const create = async (mapping: object) => {
    const made = await cli(
      'campaign',
      'create',
      '--name',
      'cli sale',
      '--template',
      stack.seed.templateId,
      '--sender',
      `+${stack.seed.senderNumber}`,
      '--mapping',
      JSON.stringify(mapping),
      '--quiet-hours',
      '23:59-00:00',
    );
    expect(made.code).toBe(0);
    return /^([0-9a-f-]{36})\s+draft/.exec(made.out)![1];
  };

  it('creates a campaign, streams its CSV, previews the bad row, starts it skipping that row, and shows the funnel', async () => {
    const file = join(dir, 'audience.csv');
    // The last row repeats the first's number: read, counted, not kept.
    writeFileSync(file, 'phone,img\n+919700000001,https://cdn.example.com/1.jpg\n+919700000002,https://cdn.example.com/2.jpg\n+919700000003,nope\n+919700000001,https://cdn.example.com/9.jpg\n');
    const id = await create({ number: 'phone', cards: [{ mediaLink: 'img' }, ...fixed(2)] });

    const audience = await cli('campaign', 'audience', '--campaign', id, '--csv', file);
    expect(audience.out).toContain('4 rows: 2 recipients, 1 invalid row, 1 repeated number');
    // The draft reopened later counts as the upload's answer did.
    expect((await cli('campaign', 'show', '--campaign', id)).out).toContain('audience: 3 rows (1 invalid) from csv; its upload read 4 rows, 1 repeated number not kept');
    expect((await cli('campaign', 'preview', '--campaign', id)).out).toMatch(/row 3 {2}- {2}column img: "nope" is not an http\(s\) URL/);

    const refused = await cli('campaign', 'start', '--campaign', id);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/409: campaign audience has 1 invalid row /);
    expect((await cli('campaign', 'start', '--campaign', id, '--skip-invalid')).out).toContain('running');
    const shown = await until(async () => {
      const s = await cli('campaign', 'show', '--campaign', id);
      // The status turns completed a moment after the last send is recorded.
      return /funnel: queued 2, sent 2/.test(s.out) && s.out.includes('completed') ? s.out : undefined;
    });
    expect(shown).toContain('recipients: 3 (pending 0, queued 2, capped 0, invalid 1, cancelled 0)');
    expect(shown).toContain('its upload read 4 rows, 1 repeated number not kept');
    expect((await cli('campaign', 'list')).out).toContain(`${id}  completed  2 recipients  cli sale`);
  }, 120_000);

  it("takes a segment of the bot's recorded WhatsApp users", async () => {
    const db = stack.gateway.get(PrismaService, { strict: false });
    for (const [user, days] of [
      ['919700000011', 1],
      ['919700000012', 2],
      ['919700000013', 40],
    ] as const)
      await db.query({
        text: `INSERT INTO conversations (id, bot_id, channel, user_id, last_inbound_at, created_at, updated_at) VALUES (gen_random_uuid(), $1, 'whatsapp', $2, now() - $3 * interval '1 day', now(), now())`,
        values: [stack.seed.botId, user, days],
      });
    const id = await create({ number: 'number', cards: fixed(3) });
    expect((await cli('campaign', 'audience', '--campaign', id, '--segment', '--active-within-days', '30')).out).toContain('2 rows: 2 recipients, 0 invalid rows');
    expect((await cli('campaign', 'preview', '--campaign', id)).out).toMatch(/row 1 {2}919700000011 .*\n.*row 2 {2}919700000012/);
  });

  it("warns about the sender's messaging limit in the preview, and starts past it only with --acknowledge-tier-limit", async () => {
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_50');
    try {
      const file = join(dir, 'many.csv');
      writeFileSync(file, `phone,img\n${Array.from({ length: 60 }, (_, i) => `+9196000${String(i).padStart(5, '0')},https://cdn.example.com/${i}.jpg`).join('\n')}\n`);
      const id = await create({ number: 'phone', cards: [{ mediaLink: 'img' }, ...fixed(2)] });
      await cli('campaign', 'audience', '--campaign', id, '--csv', file);
      // The start reads the tier from Meta (the preview shows the tier stored then).
      const refused = await cli('campaign', 'start', '--campaign', id);
      expect(refused.code).not.toBe(0);
      expect(refused.out).toMatch(/409: Sender \+15550001111 is at Meta's messaging limit TIER_50.*\(CLI: campaign start --acknowledge-tier-limit\)/);
      const preview = (await cli('campaign', 'preview', '--campaign', id)).out;
      expect(preview).toMatch(/messaging limit: TIER_50 \(50 users in 24 h\); messaged in the last 24 h \d+, this campaign in the next 24 h 60/);
      expect(preview).toContain("warning: Sender +15550001111 is at Meta's messaging limit TIER_50");
      const started = (await cli('campaign', 'start', '--campaign', id, '--acknowledge-tier-limit')).out;
      expect(started).toContain('running');
      expect(started).toContain('warning: Sender +15550001111');
      await cli('campaign', 'cancel', '--campaign', id);
    } finally {
      stack.cloud.messagingLimits.delete(stack.seed.phoneNumberId);
    }
  });

  it('says what is missing without an API key', async () => {
    const lines: string[] = [];
    const code = await runCli(['campaign', 'list', '--bot', stack.seed.botId, '--url', stack.url], (l) => lines.push(l), stack.env);
    expect(code).not.toBe(0);
    expect(lines.join('\n')).toContain('an API key is required: set PLATFORM_API_KEY (or --api-key)');
  });
});
