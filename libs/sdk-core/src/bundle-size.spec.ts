import { build } from 'esbuild';
import { join } from 'node:path';

/** The React Native SDK size from the platform spec, the smallest native SDK: 39.2 KB. */
const LIMIT_BYTES = 39.2 * 1024;

describe('bundle size', () => {
  it('keeps the minified ESM bundle of the whole package under 39.2 KB', async () => {
    // Same options as build.mjs; platform "neutral" also fails the build on any Node built-in import.
    const result = await build({
      entryPoints: [join(__dirname, 'index.ts')],
      bundle: true,
      platform: 'neutral',
      target: 'es2019',
      format: 'esm',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    const bytes = result.outputFiles[0].contents.byteLength;
    // The whole package is in it, not an empty or tree-shaken stub.
    expect(result.outputFiles[0].text).toMatch(/export\{.*BotSession.*\}/);
    expect(bytes).toBeGreaterThan(1024);
    expect(bytes).toBeLessThan(LIMIT_BYTES);
  });
});
