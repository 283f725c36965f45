// Holds the sizes docs/sdk.md states to the built ones: each row of its table between the
// `sdk-sizes` markers must give the size this script measures (KB with one decimal, tools/sdk-sizes.mjs),
// and stay under the row's limit. `node tools/check-sdk-sizes.mjs` checks (exit 1 naming each
// mismatch); `--write` puts the measured sizes into the table. Run by libs/sdk-core/src/documented-sizes.spec.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SDK_PACKAGES, kb, measure } from './sdk-sizes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// SDK_SIZES_DOC: another copy of the doc (the check's own test).
const DOC = process.env.SDK_SIZES_DOC ?? join(root, 'docs/sdk.md');
const START = '<!-- sdk-sizes:start -->';
const END = '<!-- sdk-sizes:end -->';

/** The web embed (embed.js) as tools/build-web-chat.mjs builds it. */
async function embedBytes() {
  const out = await build({
    entryPoints: [join(root, 'apps/web-chat/src/embed.ts')],
    bundle: true,
    minify: true,
    target: ['es2020', 'safari15'],
    legalComments: 'none',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].contents.byteLength;
}

const rows = [];
for (const pkg of SDK_PACKAGES) rows.push({ name: pkg.name, bytes: await measure(pkg), limitKb: pkg.limitKb });
rows.push({ name: 'web embed (`/web/bot/embed.js`)', bytes: await embedBytes(), limitKb: null });

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(START);
const end = doc.indexOf(END);
if (start < 0 || end < start) {
  console.error(`docs/sdk.md has no table between ${START} and ${END}`);
  process.exit(1);
}
const table = [
  '| Package | Size (minified) | Limit |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.name.startsWith('@') ? `\`${r.name}\`` : r.name} | ${kb(r.bytes).toFixed(1)} KB | ${r.limitKb === null ? '—' : `${r.limitKb} KB`} |`),
].join('\n');

if (process.argv.includes('--write')) {
  writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`);
  console.log(table);
  process.exit(0);
}

const problems = [];
const stated = doc.slice(start + START.length, end);
for (const r of rows) {
  const name = r.name.startsWith('@') ? `\`${r.name}\`` : r.name;
  const line = stated.split('\n').find((l) => l.startsWith(`| ${name} |`));
  const said = line && /\|\s*([\d.]+) KB\s*\|/.exec(line)?.[1];
  if (!said) problems.push(`docs/sdk.md states no size for ${r.name}`);
  else if (Number(said) !== kb(r.bytes)) problems.push(`docs/sdk.md says ${r.name} is ${said} KB; it builds to ${kb(r.bytes).toFixed(1)} KB (${r.bytes} bytes)`);
  if (r.limitKb !== null && r.bytes >= r.limitKb * 1024) problems.push(`${r.name} is ${r.bytes} bytes, over its limit of ${r.limitKb} KB`);
}
if (problems.length) {
  console.error(`${problems.join('\n')}\n(node tools/check-sdk-sizes.mjs --write updates the table)`);
  process.exit(1);
}
console.log(`sizes in docs/sdk.md match the builds: ${rows.map((r) => `${r.name} ${kb(r.bytes)} KB`).join(', ')}`);
