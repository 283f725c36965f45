import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { HttpEnv } from '@platform/config';

/**
 * The absolute ws(s):// address of a session's event stream under the public BASE_URL (wss:// when it is
 * https; its path prefix kept). BASE_URL defaults to http://HOST:PORT; with PORT=0 the bound port is used.
 */
export function buildStreamUrl(baseUrl: string, botId: string, sessionId: string, boundPort?: number): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port === '0' && boundPort) url.port = String(boundPort);
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}/v1/bots/${encodeURIComponent(botId)}/sessions/${encodeURIComponent(sessionId)}/stream`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

@Injectable()
export class StreamUrls {
  constructor(
    private readonly env: HttpEnv,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  forSession(botId: string, sessionId: string): string {
    const address = this.adapterHost.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null;
    return buildStreamUrl(this.env.BASE_URL, botId, sessionId, typeof address === 'object' && address ? address.port : undefined);
  }
}
