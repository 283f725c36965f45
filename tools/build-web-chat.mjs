// Bundles the hosted chat page (apps/web-chat) into dist/web-chat, which the gateway serves at /web/bot.
// The page's script and style also get content-hashed names (chat.<hash>.js), which index.html loads and
// the gateway caches for a year; every file gets brotli and gzip copies made here once, at the highest
// levels, so the gateway never compresses per request.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const src = 'apps/web-chat/src';
const out = process.env.WEB_CHAT_OUT ?? 'dist/web-chat';
mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (/\.(br|gz)$|^chat\.[0-9a-z]{10}\.(js|css)$/.test(f)) rmSync(`${out}/${f}`);
const common = { bundle: true, minify: true, target: ['es2020', 'safari15'], legalComments: 'none', logLevel: 'warning' };
await build({ ...common, entryPoints: [`${src}/main.ts`], outfile: `${out}/chat.js`, format: 'esm' });
await build({ ...common, entryPoints: [`${src}/embed.ts`], outfile: `${out}/embed.js`, format: 'iife' });
await build({ ...common, entryPoints: [`${src}/chat.css`], outfile: `${out}/chat.css` });

const hashed = {};
for (const name of ['chat.js', 'chat.css']) {
  const body = readFileSync(`${out}/${name}`);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  hashed[name] = name.replace(/\.(js|css)$/, `.${hash}.$1`);
  copyFileSync(`${out}/${name}`, `${out}/${hashed[name]}`);
}
let html = readFileSync(`${src}/index.html`, 'utf8');
for (const [name, file] of Object.entries(hashed)) html = html.replace(`bot/${name}"`, `bot/${file}"`);
writeFileSync(`${out}/index.html`, html);

for (const name of ['chat.js', 'chat.css', 'embed.js', 'index.html', ...Object.values(hashed)]) {
  const body = readFileSync(`${out}/${name}`);
  writeFileSync(`${out}/${name}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  writeFileSync(`${out}/${name}.gz`, gzipSync(body, { level: 9 }));
}
const gz = ['chat.js', 'chat.css', 'index.html'].reduce((n, f) => n + statSync(`${out}/${f}.gz`).size, 0);
if (process.env.WEB_CHAT_SIZE) console.log(`web chat: ${gz} bytes gzipped (page), embed ${statSync(`${out}/embed.js`).size} bytes`);
