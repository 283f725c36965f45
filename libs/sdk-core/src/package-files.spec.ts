import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAYLOAD_MAX_BYTES } from './config/rules';

const root = join(__dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('published package files', () => {
  // What is packed is dist/ as build.mjs writes it (npm test does not build the package first).
  beforeAll(() => execFileSync(process.execPath, ['build.mjs'], { cwd: root, stdio: 'ignore' }), 120_000);

  it('packs README.md and LICENSE beside dist/', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as Array<{
      files: Array<{ path: string }>;
    }>;
    const paths = packed.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
    expect(paths.every((p) => ['README.md', 'LICENSE', 'package.json'].includes(p) || p.startsWith('dist/'))).toBe(true);
    // Every relative link of the README opens inside the tarball (one to ../../docs/sdk.md did not).
    const links = [...read('README.md').matchAll(/\]\((?!https?:|#)([^)#]+)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(paths).toContain(link);
  });

  it('ships the MIT license that the package and the repository declare', () => {
    const manifest = JSON.parse(read('package.json')) as { license: string; files: string[] };
    const repository = JSON.parse(read('../../package.json')) as { license: string };
    expect(manifest.license).toBe('MIT');
    expect(repository.license).toBe('MIT');
    expect(read('LICENSE')).toMatch(/^MIT License\n/);
  });

  it('documents the limits, typed events and where the protocol is in its README, without links out of the package', () => {
    const readme = read('README.md');
    for (const section of ['## Install', '## Open a bot', '## Sessions', '## Events', '## Push', '## Errors', '## Limits']) expect(readme).toContain(section);
    // It ships in the tarball, where a link out of the package (../../docs/sdk.md) is dead: its link goes to the packed copy.
    expect(readme).not.toMatch(/\]\(\.\.\//);
    expect(readme).toContain('](dist/sdk.md)');
    expect(readme).toContain('`docs/sdk-protocol.md`');
    expect(readme).toContain(`${PAYLOAD_MAX_BYTES.toLocaleString('en-US')} bytes`);
    expect(readme).toContain('createBotSession<ShopEvents>');
  });
});
