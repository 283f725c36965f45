import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { PLATFORM_V8_FLAGS } from './v8-flags.js';

describe('PLATFORM_V8_FLAGS', () => {
  it('names only flags this Node.js knows (setFlagsFromString ignores an unknown one without a word)', () => {
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const flag of PLATFORM_V8_FLAGS) {
      const name = flag.replace(/^--(no-)?/, '').split('=')[0];
      expect(known).toContain(`--${name} `);
    }
  });

  it("is set by the first import of every Node app's main.ts, before any other module runs", () => {
    const mains = readdirSync('apps').filter((app) => existsSync(`apps/${app}/src/main.ts`));
    const apps = mains.filter((app) => readFileSync(`apps/${app}/src/main.ts`, 'utf8').includes('runMain(')); // the Node apps, not the browser's
    expect(apps).toEqual(expect.arrayContaining(['gateway', 'channel-worker', 'bot-runtime', 'push-service', 'cli']));
    for (const app of apps) {
      const firstImport = readFileSync(`apps/${app}/src/main.ts`, 'utf8').match(/^import .*$/m)?.[0];
      expect({ app, firstImport }).toEqual({ app, firstImport: expect.stringMatching(/^import '@platform\/common\/v8-flags';/) });
    }
  });
});
