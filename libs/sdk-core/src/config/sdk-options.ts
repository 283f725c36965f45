import { SdkError, ValidationError } from '../errors';
import type { FetchLike } from '../transport/fetch-like';
import type { WebSocketConstructorLike } from '../transport/websocket-like';
import { API_BASE_URL_PATTERN, HOST_PATTERN } from './rules';

/** Where the platform lives and which network primitives to use. */
export interface SdkOptions {
  /** The bot cloud host without scheme, e.g. `cloud.example.com`. Region hosts are `r1.` … `r5.` in front of it. */
  cloudHost: string;
  /** Base of the `/v1/...` API. Default: the config's `customBaseUrl`, else `https://<cloudHost>`. */
  apiBaseUrl?: string;
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Default: the global `WebSocket` (Node 20 has none: pass `WebSocket` from `ws`). */
  WebSocket?: WebSocketConstructorLike;
  /** Abort an HTTP request after this many milliseconds (default 15000). */
  requestTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

export function checkCloudHost(cloudHost: unknown): string {
  if (typeof cloudHost !== 'string' || !HOST_PATTERN.test(cloudHost)) {
    throw new ValidationError('cloudHost', 'hostname', 'cloudHost must be a host name such as "cloud.example.com" (no scheme, no path)');
  }
  return cloudHost.toLowerCase();
}

/** `options.apiBaseUrl`, else `fallback`, else `https://<cloudHost>`; without trailing slash. */
export function resolveApiBaseUrl(options: SdkOptions, fallback?: string): string {
  const cloudHost = checkCloudHost(options.cloudHost);
  const url = options.apiBaseUrl ?? fallback ?? `https://${cloudHost}`;
  if (typeof url !== 'string' || !API_BASE_URL_PATTERN.test(url)) {
    throw new ValidationError('apiBaseUrl', 'url', 'apiBaseUrl must be an http(s) URL without query or fragment');
  }
  return url.replace(/\/+$/, '');
}

export function resolveFetch(options: SdkOptions): FetchLike {
  if (options.fetch) return options.fetch;
  const global = globalThis as { fetch?: FetchLike };
  if (typeof global.fetch !== 'function') throw new SdkError('No global fetch: pass options.fetch');
  // Bound so browsers do not throw "Illegal invocation".
  return global.fetch.bind(globalThis);
}

export function resolveWebSocket(options: SdkOptions): WebSocketConstructorLike {
  if (options.WebSocket) return options.WebSocket;
  const global = globalThis as { WebSocket?: WebSocketConstructorLike };
  if (typeof global.WebSocket !== 'function') throw new SdkError('No global WebSocket: pass options.WebSocket (e.g. from the "ws" package)');
  return global.WebSocket;
}
