// Bundles the hosted chat page (apps/web-chat) into dist/web-chat, which the gateway serves at /web/bot.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const src = 'apps/web-chat/src';
const out = process.env.WEB_CHAT_OUT ?? 'dist/web-chat';
mkdirSync(out, { recursive: true });
const common = { bundle: true, minify: true, target: ['es2020', 'safari15'], legalComments: 'none', logLevel: 'warning' };
await build({ ...common, entryPoints: [`${src}/main.ts`], outfile: `${out}/chat.js`, format: 'esm' });
await build({ ...common, entryPoints: [`${src}/embed.ts`], outfile: `${out}/embed.js`, format: 'iife' });
await build({ ...common, entryPoints: [`${src}/chat.css`], outfile: `${out}/chat.css` });
copyFileSync(`${src}/index.html`, `${out}/index.html`);
const gz = ['chat.js', 'chat.css', 'index.html'].reduce((n, f) => n + gzipSync(readFileSync(`${out}/${f}`)).length, 0);
if (process.env.WEB_CHAT_SIZE) console.log(`web chat: ${gz} bytes gzipped (page), embed ${statSync(`${out}/embed.js`).size} bytes`);
