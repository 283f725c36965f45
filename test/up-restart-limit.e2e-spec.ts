import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * An app under `npm run up` that keeps crashing is restarted UP_RESTART_LIMIT times, each with a line,
 * and then given up on (up then stops everything and exits 1).
 */
describe('up: an app that keeps crashing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crasher-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is restarted up to the limit, then given up on', async () => {
    process.env.UP_RESTART_LIMIT = '2';
    const { SupervisedApp } = await import('../tools/up/supervised-app.js');
    const script = join(dir, 'crash.mjs');
    writeFileSync(script, 'process.exit(3);\n');
    const lines: string[] = [];
    const gaveUp = await new Promise<string>((resolve) => {
      const app = new SupervisedApp(
        'crasher',
        script,
        {},
        (line: string) => lines.push(line),
        (a: { name: string }) => resolve(a.name),
      );
      expect(app.start()).toBe(true);
    });
    expect(gaveUp).toBe('crasher');
    expect(lines.filter((l) => !l.includes('started (pid'))).toEqual([
      '[crasher] exited with code 3; restarting (1 of 2)',
      '[crasher] exited with code 3; restarting (2 of 2)',
      '[crasher] exited with code 3; restarted 2 times in a row already, giving up',
    ]);
    expect(lines.filter((l) => l.includes('started (pid'))).toHaveLength(3);
  }, 120_000);
});
