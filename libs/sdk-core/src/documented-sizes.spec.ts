import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const check = join(root, 'tools/check-sdk-sizes.mjs');

describe('the sizes the docs state', () => {
  it('are the built ones, for every SDK package and the web embed, under their limits', () => {
    const out = execFileSync(process.execPath, [check], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/^sizes in docs\/sdk.md match the builds: @bot-platform\/sdk-core [\d.]+ KB, @bot-platform\/sdk-react-native [\d.]+ KB, @bot-platform\/sdk-cordova [\d.]+ KB, web embed/);
  });

  it('a wrong figure fails the check, naming the package and the built size', () => {
    // The check on a copy of docs/sdk.md whose table says 1.0 KB for the core.
    const copy = join(mkdtempSync(join(tmpdir(), 'sizes-')), 'sdk.md');
    const doc = readFileSync(join(root, 'docs/sdk.md'), 'utf8').replace(/(\| `@bot-platform\/sdk-core` \| )[\d.]+ KB/, '$11.0 KB');
    expect(doc).toContain('| `@bot-platform/sdk-core` | 1.0 KB');
    writeFileSync(copy, doc);
    const run = spawnSync(process.execPath, [check], { cwd: root, encoding: 'utf8', env: { ...process.env, SDK_SIZES_DOC: copy } });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/docs\/sdk.md says @bot-platform\/sdk-core is 1.0 KB; it builds to [\d.]+ KB \(\d+ bytes\)/);
  });
});
