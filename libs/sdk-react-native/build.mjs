// Builds dist/: index.mjs (ESM, also the "react-native" entry), index.cjs and type declarations.
// @bot-platform/sdk-core (a dependency) and the peers stay imports; `npm run build:sdk` builds the core first,
// whose declarations these refer to. Prints the size an app gains (tools/sdk-sizes.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SDK_PACKAGES, kb, measure } from '../../tools/sdk-sizes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const require = createRequire(import.meta.url);
for (const file of ['README.md', 'LICENSE']) {
  if (!existsSync(join(here, file))) throw new Error(`libs/sdk-react-native/${file} is missing: the package must ship it`);
}
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const options = {
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  platform: 'neutral',
  target: 'es2019',
  logLevel: 'warning',
  external: ['react', 'react-native', 'react-native-webview', '@bot-platform/sdk-core'],
};
await build({ ...options, format: 'esm', outfile: join(dist, 'index.mjs') });
await build({ ...options, format: 'cjs', outfile: join(dist, 'index.cjs') });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json'), '--emitDeclarationOnly'], { stdio: 'inherit' });
const bytes = await measure(SDK_PACKAGES.find((p) => p.name === '@bot-platform/sdk-react-native'));
console.log(`sdk-react-native: ${bytes} bytes (${kb(bytes)} KB) minified with the sdk-core code it uses`);
