import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');

describe('the published plugin', () => {
  it('packs plugin.xml, the js-module it names (built), README.md and LICENSE, and nothing else', () => {
    execFileSync(process.execPath, [join(root, 'build.mjs')], { cwd: root, stdio: 'pipe' });
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as Array<{ files: Array<{ path: string; size: number }> }>;
    const module = /<js-module src="([^"]+)"/.exec(readFileSync(join(root, 'plugin.xml'), 'utf8'))![1];
    expect(module).toBe('www/bot-chat.js');
    expect(packed.files.map((f) => f.path).sort()).toEqual(['LICENSE', 'README.md', 'package.json', 'plugin.xml', module].sort());
    expect(packed.files.find((f) => f.path === module)!.size).toBeLessThan(47.4 * 1024);
  });
});
