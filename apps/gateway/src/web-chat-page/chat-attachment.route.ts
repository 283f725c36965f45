import { BadRequestException, Injectable, NotFoundException, OnModuleInit, PayloadTooLargeException, UnauthorizedException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { bearerToken } from '@platform/auth';
import { HttpEnv } from '@platform/config';
import { SdkSessionService } from '../sdk-sessions/sdk-session.service.js';
import { ATTACHMENTS_PATH, ChatAttachmentService, tooLarge } from './chat-attachment.service.js';
import { safeFileHeaders } from './safe-file-headers.js';

export const UPLOAD_PATH = '/v1/bots/:botId/sessions/:sessionId/attachments';
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * The chat page's file upload (the raw bytes as the body, their type as Content-Type, the name in
 * X-File-Name, URI-encoded) and the files' addresses. Fastify routes in their own plugin scope: only
 * here does a body of any type arrive as bytes, up to CHAT_ATTACHMENT_MAX_BYTES.
 */
@Injectable()
export class ChatAttachmentRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly attachments: ChatAttachmentService,
    private readonly sessions: SdkSessionService,
    private readonly http: HttpEnv,
  ) {}

  async onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const max = this.attachments.maxBytes;
    await fastify.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: max + 1 }, (_req, body, done) => done(null, body));
      // Refused before a byte of the body is read when its declared length is over the limit.
      scope.addHook('onRequest', async (req) => {
        if (req.method === 'POST' && Number(req.headers['content-length'] ?? 0) > max) throw new PayloadTooLargeException(tooLarge(max));
      });
      scope.post(UPLOAD_PATH, (req, reply) => this.upload(fastify, req, reply));
      scope.get(`${ATTACHMENTS_PATH}/:id`, (req, reply) => this.serve(req, reply));
    });
  }

  private async upload(fastify: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(req.headers);
    if (!token) throw new UnauthorizedException('Authorization: Bearer <chat auth token> is required');
    const { botId, sessionId } = req.params as { botId: string; sessionId: string };
    const session = await this.sessions.check(botId, sessionId, token);
    if (session === 'unauthorized') throw new UnauthorizedException('The chat auth token is not valid for this session');
    if (session === 'gone') throw new NotFoundException('Unknown or expired session; start a new one');
    const clientMessageId = header(req, 'x-client-message-id');
    if (clientMessageId !== undefined && !CLIENT_ID.test(clientMessageId)) throw new BadRequestException('X-Client-Message-Id must be 8 to 64 of A-Z a-z 0-9 _ -');
    let fileName = header(req, 'x-file-name');
    try {
      fileName = fileName === undefined ? undefined : decodeURIComponent(fileName);
    } catch {
      throw new BadRequestException('X-File-Name must be URI-encoded (encodeURIComponent)');
    }
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const view = await this.attachments.upload(session, { contentType: req.headers['content-type'], fileName, bytes, clientMessageId }, this.publicBase(fastify));
    await this.sessions.touch(session.id);
    return reply.code(202).send({ message: 'File queued for the bot', status: 'success', messageId: view.id, conversationId: view.conversationId, seq: view.seq, attachment: view.content.attachment });
  }

  private async serve(req: FastifyRequest, reply: FastifyReply) {
    const file = await this.attachments.file((req.params as { id: string }).id);
    // The address never changes content: cached for good, by the browser only.
    return reply.headers(safeFileHeaders(file.contentType, file.fileName)).header('cache-control', 'private, max-age=31536000, immutable').send(file.bytes);
  }

  /** BASE_URL with the bound port in place of 0 (tests listen on any free port). */
  private publicBase(fastify: FastifyInstance): string {
    const url = new URL(this.http.BASE_URL!);
    const address = fastify.server.address() as AddressInfo | string | null;
    if (url.port === '0' && typeof address === 'object' && address) url.port = String(address.port);
    return url.origin + url.pathname.replace(/\/$/, '');
  }
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
