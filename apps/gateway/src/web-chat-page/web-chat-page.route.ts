import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { HttpEnv, WebChatEnv } from '@platform/config';
import { chatPagePolicy, wsOrigin } from './content-security-policy.js';

export const WEB_CHAT_PATH = '/web/bot';

const ASSETS: ReadonlyArray<[string, string]> = [
  ['chat.js', 'text/javascript; charset=utf-8'],
  ['chat.css', 'text/css; charset=utf-8'],
  ['embed.js', 'text/javascript; charset=utf-8'],
];

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
    // A handful of small files, read once: served from memory with an ETag.
    const assets = new Map<string, { body: Buffer; type: string; etag: string }>();
    for (const [name, type] of ASSETS) {
      const file = resolve(root, name);
      if (!existsSync(file)) continue;
      const body = readFileSync(file);
      assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
    }
    await fastify.register(async (scope) => {
      scope.addHook('onSend', async (_req, reply) => {
        reply.header('content-security-policy', this.policy(fastify));
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'no-referrer');
      });
      scope.get(WEB_CHAT_PATH, (req, reply) => this.page(html, req, reply));
      scope.get(`${WEB_CHAT_PATH}/:file`, (req, reply) => {
        const asset = assets.get((req.params as { file: string }).file);
        if (!asset) return reply.code(404).send({ message: 'No such file of the chat page', status: 'error' });
        reply.header('cache-control', 'public, max-age=300').header('etag', asset.etag).type(asset.type);
        if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.send(asset.body);
      });
    });
  }

  private page(html: Buffer | null, _req: FastifyRequest, reply: FastifyReply) {
    if (!html) return reply.code(404).send({ message: 'The chat page is not built on this server', status: 'error' });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  }

  private policy(fastify: FastifyInstance): string {
    const address = fastify.server.address() as AddressInfo | string | null;
    const origin = wsOrigin(this.http.BASE_URL!, typeof address === 'object' && address ? address.port : undefined);
    return chatPagePolicy(origin ? [origin] : []);
  }
}
