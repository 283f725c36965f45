import { BadRequestException, ForbiddenException, Injectable, Logger, NotFoundException, OnModuleInit, UnauthorizedException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WhatsAppWebhookEnv } from '@platform/config';
import { safeEqual } from '@platform/crypto';
import { HUB_SIGNATURE_HEADER, WebhookEnvelopeError, WhatsAppWebhookNotification, isValidHubSignature, readWebhookNotification } from '@platform/whatsapp';
import { JSON_MAX_DEPTH, jsonNestedDeeperThan } from '../http/json-nesting.js';
import { JsonTooDeepError } from '../http/json-too-deep.error.js';
import { InboundMessagesService } from './inbound-messages.service.js';
import { MessageReceiptsService } from './message-receipts.service.js';

export const WHATSAPP_WEBHOOK_PATH = '/webhooks/whatsapp';

/**
 * Meta's WhatsApp webhook: GET is the verification handshake, POST a signed change notification, read
 * once, whose message statuses are recorded (or held until their send is), and whose incoming messages
 * are recorded (once per wamid) and queued for their bot's webhook, before the 200 (Meta retries
 * anything else). A body whose envelope is not of Meta's shape gets a 400 naming the part. Fastify
 * routes in their own plugin scope, where JSON bodies arrive as bytes: the signature covers the raw
 * body. Both answer 404 while WHATSAPP_WEBHOOK_VERIFY_TOKEN / WHATSAPP_APP_SECRET are unset.
 */
@Injectable()
export class WhatsAppWebhookRoute implements OnModuleInit {
  private readonly logger = new Logger('WhatsAppWebhook');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly env: WhatsAppWebhookEnv,
    private readonly receipts: MessageReceiptsService,
    private readonly inbound: InboundMessagesService,
  ) {}

  async onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      // The nesting limit every JSON body has, checked on the bytes (parsed after the signature).
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        jsonNestedDeeperThan((body as Buffer).toString('latin1'), JSON_MAX_DEPTH) ? done(new JsonTooDeepError(), undefined) : done(null, body),
      );
      // At warn, Fastify's request lines, which carry the URL and so the verify token, are not written.
      scope.get(WHATSAPP_WEBHOOK_PATH, { logLevel: 'warn' }, (req, reply) => this.verify(req, reply));
      scope.post(WHATSAPP_WEBHOOK_PATH, (req) => this.notify(req));
    });
  }

  private verify(req: FastifyRequest, reply: FastifyReply): FastifyReply {
    const { verifyToken } = this.settings();
    const query = req.query as Record<string, unknown>;
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    const ok = query['hub.mode'] === 'subscribe' && typeof token === 'string' && safeEqual(token, verifyToken);
    if (!ok || typeof challenge !== 'string' || challenge === '') throw new ForbiddenException('Webhook verification failed');
    return reply.type('text/plain; charset=utf-8').send(challenge);
  }

  private async notify(req: FastifyRequest): Promise<{ message: string; status: 'success' }> {
    const { appSecret } = this.settings();
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!isValidHubSignature(appSecret, req.headers[HUB_SIGNATURE_HEADER], rawBody)) {
      throw new UnauthorizedException('Missing or invalid X-Hub-Signature-256 signature');
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new BadRequestException('Request body must be JSON');
    }
    let notification: WhatsAppWebhookNotification;
    try {
      notification = readWebhookNotification(body);
    } catch (err) {
      if (err instanceof WebhookEnvelopeError) throw new BadRequestException(err.message);
      throw err;
    }
    const { statuses, messages, skipped } = notification;
    if (skipped.statuses > 0) this.logger.debug(`${skipped.statuses} status(es) ignored: no usable message id, or not sent/delivered/read/failed`);
    if (skipped.messages > 0) this.logger.debug(`${skipped.messages} incoming message(s) ignored: unsupported type or incomplete`);
    await this.receipts.record(statuses);
    await this.inbound.record(messages);
    return { message: 'Statuses recorded', status: 'success' };
  }

  private settings(): { verifyToken: string; appSecret: string } {
    const { WHATSAPP_WEBHOOK_VERIFY_TOKEN: verifyToken, WHATSAPP_APP_SECRET: appSecret } = this.env;
    if (!verifyToken || !appSecret) throw new NotFoundException('WhatsApp webhooks are not configured on this platform');
    return { verifyToken, appSecret };
  }
}
