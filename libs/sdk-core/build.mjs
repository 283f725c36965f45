// Builds dist/: index.mjs (ESM), index.cjs (CJS), index.min.mjs (minified ESM, for size tracking) and
// type declarations (tsc --emitDeclarationOnly). Run from anywhere: `npm run build:sdk`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const require = createRequire(import.meta.url);

// src/bundle-size.spec.ts builds with the same options.
const bundleOptions = {
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  platform: 'neutral',
  target: 'es2019',
  logLevel: 'warning',
};

// The package's `files` ship these beside dist/; a tarball without them would have no license.
for (const file of ['README.md', 'LICENSE']) {
  if (!existsSync(join(here, file))) throw new Error(`libs/sdk-core/${file} is missing: the package must ship it`);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
// The protocol and its rules, packed beside the code: the README's link must open from the npm tarball too,
// where the repository's docs/ is not (its link to ../../docs/sdk.md was dead there).
copyFileSync(join(here, '..', '..', 'docs', 'sdk.md'), join(dist, 'sdk.md'));

await build({ ...bundleOptions, format: 'esm', outfile: join(dist, 'index.mjs'), sourcemap: true });
await build({ ...bundleOptions, format: 'cjs', outfile: join(dist, 'index.cjs'), sourcemap: true });
await build({ ...bundleOptions, format: 'esm', minify: true, outfile: join(dist, 'index.min.mjs') });

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json'), '--emitDeclarationOnly'], {
  stdio: 'inherit',
});
// Types for the "import" condition: an ESM declaration entry re-exporting the emitted declarations.
writeFileSync(join(dist, 'index.d.mts'), "export * from './types/index.js';\n");

for (const file of ['index.mjs', 'index.cjs', 'index.min.mjs']) {
  console.log(`${file.padEnd(14)} ${statSync(join(dist, file)).size} bytes`);
}
