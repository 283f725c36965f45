import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { HttpCaller, HttpOutcome, HttpRequest } from '@platform/bot-engine';
import { BotRuntimeEnv, BotRuntimeServerEnv } from '@platform/config';
import { NonPublicAddressError, UnresolvableHostError, publicOnlyLookup, resolvePublicAddresses } from '@platform/contracts';

/** An http node's answer is read up to this size; a bigger one fails the node (a bot's variables are no place for it). */
export const MAX_HTTP_ANSWER_BYTES = 256 * 1024;

/** No node waits longer than this, whatever it names (the definition schema's own bound). */
const MAX_TIMEOUT_MS = 10_000;

/**
 * Hosted bots' http nodes over undici. Connections go only to addresses the lookup vetted: public
 * ones unless BOT_HTTP_ALLOW_PRIVATE_ADDRESSES (the postbacks' rule, public-address.ts), so a bot cannot
 * reach the platform's own network. Redirects are answers, never followed. A node's call is bounded by
 * its timeout (BOT_HTTP_TIMEOUT_MS when it names none). Failures are outcomes, never throws, and their
 * text names neither the URL nor headers (they may carry the bot's secrets).
 */
@Injectable()
export class BotHttpCaller implements HttpCaller, OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly allowPrivate: boolean;
  private readonly defaultTimeoutMs: number;

  constructor(env: BotRuntimeEnv, server: BotRuntimeServerEnv) {
    this.allowPrivate = server.BOT_HTTP_ALLOW_PRIVATE_ADDRESSES;
    this.defaultTimeoutMs = env.BOT_HTTP_TIMEOUT_MS;
    // Each new connection's address is vetted; a pooled one was vetted when it connected.
    this.agent = new Agent({ connect: { lookup: publicOnlyLookup(this.allowPrivate) as never }, keepAliveTimeout: 4000 });
  }

  async call(req: HttpRequest): Promise<HttpOutcome> {
    const timeoutMs = Math.min(req.timeoutMs > 0 ? req.timeoutMs : this.defaultTimeoutMs, MAX_TIMEOUT_MS);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return { ok: false, error: 'the URL is not valid' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: `only http and https URLs are called (not ${url.protocol})` };
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      // An address literal is connected to without a lookup, so it is checked here.
      const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(literal)) await resolvePublicAddresses(literal, this.allowPrivate);
      const res = await request(url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_HTTP_ANSWER_BYTES) {
          res.body.destroy();
          return { ok: false, error: `the answer is larger than ${MAX_HTTP_ANSWER_BYTES} bytes` };
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      return { ok: true, status: res.statusCode, body: parseBody(text, String(res.headers['content-type'] ?? '')) };
    } catch (err) {
      return { ok: false, error: describe(err, signal.aborted, timeoutMs) };
    }
  }

  async onApplicationShutdown() {
    await this.agent.close().catch(() => undefined);
  }
}

/** JSON answers as values, others as their text (JSON that does not parse too). */
function parseBody(text: string, contentType: string): unknown {
  if (text === '') return null;
  if (/\bjson\b/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Why a call failed, in words that carry no part of the request. */
function describe(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  if (err instanceof NonPublicAddressError) return 'the host is not a public address';
  if (err instanceof UnresolvableHostError) return 'the host does not resolve';
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code) return `the call failed (${code})`;
  return 'the call failed';
}
