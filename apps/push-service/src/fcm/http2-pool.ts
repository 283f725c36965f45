import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ClientHttp2Session, IncomingHttpHeaders, connect, constants } from 'node:http2';
import { PlatformEnv } from '@platform/config';
import { TransientPushError } from './push-errors.js';
import { Semaphore } from './semaphore.js';

export interface Http2Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP/2 session per origin, reused by every request (reopened when the server closes it), and
 * at most FCM_MAX_IN_FLIGHT requests in flight per process. Cleartext origins (http://) speak h2c
 * with prior knowledge, which is what the loopback FCM server of tests and the benchmark expects.
 */
@Injectable()
export class Http2Pool implements OnApplicationShutdown {
  private readonly sessions = new Map<string, ClientHttp2Session>();
  private readonly slots: Semaphore;

  constructor(env: PlatformEnv) {
    this.slots = new Semaphore(env.FCM_MAX_IN_FLIGHT);
  }

  async post(origin: string, path: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Http2Response> {
    await this.slots.acquire();
    try {
      return await this.request(origin, path, headers, body, timeoutMs);
    } finally {
      this.slots.release();
    }
  }

  onApplicationShutdown(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  private session(origin: string): ClientHttp2Session {
    const existing = this.sessions.get(origin);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = connect(origin);
    const drop = () => {
      if (this.sessions.get(origin) === session) this.sessions.delete(origin);
    };
    session.on('error', drop); // each stream reports the failure to its caller
    session.on('goaway', drop);
    session.on('close', drop);
    this.sessions.set(origin, session);
    return session;
  }

  private request(origin: string, path: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Http2Response> {
    return new Promise((resolve, reject) => {
      let stream;
      try {
        stream = this.session(origin).request({ ':method': 'POST', ':path': path, ...headers });
      } catch (err) {
        return reject(new TransientPushError(`FCM unreachable: ${(err as Error).message}`));
      }
      let status = 0;
      let resHeaders: IncomingHttpHeaders = {};
      let data = '';
      stream.setEncoding('utf8');
      stream.on('response', (h) => {
        status = Number(h[':status']);
        resHeaders = h;
      });
      stream.on('data', (chunk: string) => (data += chunk));
      stream.on('end', () => resolve({ status, headers: resHeaders, body: data }));
      stream.on('close', () => reject(new TransientPushError(`FCM closed the stream (code ${stream.rstCode})`))); // no-op after end
      stream.on('error', (err: Error & { code?: string }) => reject(new TransientPushError(`FCM unreachable: ${err.code ?? err.message}`)));
      stream.setTimeout(timeoutMs, () => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new TransientPushError(`FCM did not answer within ${timeoutMs} ms`));
      });
      stream.end(body);
    });
  }
}
