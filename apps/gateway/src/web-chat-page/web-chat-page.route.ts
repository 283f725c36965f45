import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { HttpEnv, WebChatEnv } from '@platform/config';
import { chatPagePolicy, wsOrigin } from './content-security-policy.js';

export const WEB_CHAT_PATH = '/web/bot';

/** The page's files: chat.js, chat.css and embed.js, and the script and style under content-hashed names. */
const ASSET = /^(?:chat|embed)(\.[0-9a-f]{10})?\.(js|css)$/;
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** Precompressed copies the build made (name.br, name.gz). */
  br?: Buffer;
  gz?: Buffer;
  /** A hashed name never changes content: cached for a year. */
  immutable: boolean;
}

/** The encoding to answer with: brotli, then gzip, when the client accepts it and the copy exists (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined, has: { br?: unknown; gz?: unknown }): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(?:\.0*)?$/.test(part))
      .map((part) => part.split(';')[0]),
  );
  if (has.br && accepted.has('br')) return 'br';
  if (has.gz && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return undefined;
}

/**
 * Serves the hosted chat page the SDK opens (`/web/bot?botId=…#ymAuthenticationToken=…`) and its
 * bundled script, style and embed loader (`/web/bot/*`), built by `npm run build` into WEB_CHAT_DIR
 * (default `dist/web-chat`). The gateway serves files only; it does not import the page's code.
 */
@Injectable()
export class WebChatPageRoute implements OnModuleInit {
  private readonly logger = new Logger('WebChatPage');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly env: WebChatEnv,
    private readonly http: HttpEnv,
  ) {}

  async onModuleInit() {
    const root = resolve(this.env.WEB_CHAT_DIR ?? 'dist/web-chat');
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const indexFile = resolve(root, 'index.html');
    const html = existsSync(indexFile) ? readFileSync(indexFile) : null;
    if (!html) this.logger.warn(`${indexFile} is missing (run npm run build): ${WEB_CHAT_PATH} answers 404`);
    // A handful of small files, read once: served from memory with an ETag, compressed as the build made them.
    const assets = new Map<string, Asset>();
    const optional = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);
    for (const name of existsSync(root) ? readdirSync(root) : []) {
      const match = ASSET.exec(name);
      if (!match) continue;
      const body = readFileSync(resolve(root, name));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      assets.set(name, { body, type: TYPES[match[2]], etag, br: optional(resolve(root, `${name}.br`)), gz: optional(resolve(root, `${name}.gz`)), immutable: match[1] !== undefined });
    }
    const htmlBr = optional(`${indexFile}.br`);
    const htmlGz = optional(`${indexFile}.gz`);
    await fastify.register(async (scope) => {
      scope.addHook('onSend', async (_req, reply) => {
        reply.header('content-security-policy', this.policy(fastify));
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'no-referrer');
      });
      scope.get(WEB_CHAT_PATH, (req, reply) => this.page(html, req, reply, { br: htmlBr, gz: htmlGz }));
      scope.get(`${WEB_CHAT_PATH}/:file`, (req, reply) => {
        const asset = assets.get((req.params as { file: string }).file);
        if (!asset) return reply.code(404).send({ message: 'No such file of the chat page', status: 'error' });
        // Unhashed names (embed.js, which sites link to) are checked again after 5 minutes.
        reply
          .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
          .header('etag', asset.etag)
          .header('vary', 'accept-encoding')
          .type(asset.type);
        if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return this.compressed(req, reply, asset.body, asset);
      });
    });
  }

  private page(html: Buffer | null, req: FastifyRequest, reply: FastifyReply, copies: { br?: Buffer; gz?: Buffer }) {
    if (!html) return reply.code(404).send({ message: 'The chat page is not built on this server', status: 'error' });
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    return this.compressed(req, reply, html, copies);
  }

  /** The body in the encoding the client prefers among the build's copies, else as it is. */
  private compressed(req: FastifyRequest, reply: FastifyReply, body: Buffer, copies: { br?: Buffer; gz?: Buffer }) {
    const encoding = pickEncoding(req.headers['accept-encoding'], copies);
    if (!encoding) return reply.send(body);
    return reply.header('content-encoding', encoding).send(encoding === 'br' ? copies.br : copies.gz);
  }

  private policy(fastify: FastifyInstance): string {
    const address = fastify.server.address() as AddressInfo | string | null;
    const origin = wsOrigin(this.http.BASE_URL!, typeof address === 'object' && address ? address.port : undefined);
    return chatPagePolicy(origin ? [origin] : []);
  }
}
