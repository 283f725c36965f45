import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` writes the console (apps/console, built by Vite). */
export const CONSOLE_DIR = resolve(process.cwd(), 'dist', 'console');

/**
 * Page scripts come from this origin's files only: no inline script or style, no eval, API calls to this
 * origin only. `img-src data:` is for the CSS library's inline SVG icons. `frame-src 'self'` lets the
 * builder's try-it show the hosted chat page (`/web/bot`, same origin); nothing may frame the console.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

/**
 * Serves the administrators' console at /console/: hashed assets cached for a year, index.html never
 * cached without revalidation (it names the current assets), every answer with the strict CSP. The
 * built files are a few hundred kilobytes, read once at start-up. The gateway does not import console
 * code: it serves the built files, which call the same HTTP API as any script.
 */
export function registerConsole(fastify: FastifyInstance, dir = CONSOLE_DIR): void {
  const files = existsSync(join(dir, 'index.html')) ? readConsole(dir) : null;
  const send = (req: FastifyRequest, reply: FastifyReply, path: string) => {
    securityHeaders(reply);
    const file = files?.get(path);
    if (!files) return reply.status(404).send({ message: 'The console is not built: run npm run build', status: 'error' });
    if (!file) return reply.status(404).send({ message: `No console file ${path}`, status: 'error' });
    reply.header('cache-control', file.cacheControl).header('etag', file.etag);
    if (req.headers['if-none-match'] === file.etag) return reply.status(304).send();
    return reply.type(file.type).send(file.body);
  };
  // The root leads a person who opens the gateway's address to the console (it answered "Cannot GET /"); 302, so a deployment may put something else there later.
  fastify.get('/', (_req, reply) => securityHeaders(reply).redirect('/console/', 302));
  fastify.get('/console', (_req, reply) => securityHeaders(reply).redirect('/console/', 301));
  fastify.get('/console/', (req, reply) => send(req, reply, 'index.html'));
  fastify.get('/console/*', (req, reply) => send(req, reply, consolePath((req.params as { '*': string })['*'])));
}

/**
 * The file a console URL names. A path with no file extension outside assets/ is a page of the console
 * (`/console/settings/api-keys`, a link someone shared): it gets index.html, whose script turns the path
 * into the console's own hash route. Assets and other files keep their JSON 404 when missing.
 */
export function consolePath(path: string): string {
  return path.startsWith('assets/') || extname(path) !== '' ? path : 'index.html';
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

function readConsole(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full).split(sep).join('/');
    const body = readFileSync(full);
    files.set(path, {
      body,
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      // Vite names every asset by its content hash: a changed file is a new URL.
      cacheControl: path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return files;
}
