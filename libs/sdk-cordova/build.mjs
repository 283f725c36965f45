// Builds www/bot-chat.js, the plugin's js-module (plugin.xml): one minified CommonJS file with the
// sdk-core code it uses inlined, since Cordova loads www files as they are. Type-checks src/ (with the core's sources) first.
// Run by `npm run build:sdk`; prints the size, which tools/check-sdk-sizes.mjs holds to the docs.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { kb } from '../../tools/sdk-sizes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
for (const file of ['README.md', 'LICENSE', 'plugin.xml']) {
  if (!existsSync(join(here, file))) throw new Error(`libs/sdk-cordova/${file} is missing: the plugin must ship it`);
}
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
const out = join(here, 'www/bot-chat.js');
// The same options as tools/sdk-sizes.mjs measures with.
await build({
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  platform: 'neutral',
  target: 'es2019',
  format: 'cjs',
  minify: true,
  logLevel: 'warning',
  alias: { '@bot-platform/sdk-core': join(here, '../sdk-core/src/index.ts') },
  outfile: out,
});
const bytes = statSync(out).size;
console.log(`sdk-cordova: www/bot-chat.js ${bytes} bytes (${kb(bytes)} KB)`);
