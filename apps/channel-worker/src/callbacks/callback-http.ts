import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupAll } from '@platform/contracts';
import { publicOnlyLookup, resolvePublicAddresses } from '@platform/contracts';

export interface CallbackHttpOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** DNS (tests pass a fake). */
  lookupAll?: LookupAll;
}

/**
 * POSTs `body` to `url` and resolves with the answer's status. The connection goes only to an address
 * the lookup vetted (public unless `allowPrivate`), redirects are answers (never followed), and the
 * whole exchange is bounded by `timeoutMs`. Rejects when the host is refused, unreachable or silent.
 */
export async function postJson(url: URL, options: CallbackHttpOptions): Promise<number> {
  // An address literal is connected to without a lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal)) await resolvePublicAddresses(literal, options.allowPrivate);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body), ...options.headers },
      lookup: publicOnlyLookup(options.allowPrivate, options.lookupAll) as never,
      // A connection per call: a kept-alive socket would skip the lookup, and with it the address check.
      agent: false,
      timeout: options.timeoutMs,
    });
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    req.on('response', (res) => {
      clearTimeout(deadline);
      res.resume(); // the answer's body is not read
      resolve(res.statusCode ?? 0);
    });
    req.end(options.body);
  });
}
