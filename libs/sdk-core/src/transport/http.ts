import { HttpError, ProtocolError, SdkError } from '../errors';
import { isRecord } from '../json/check-json';
import type { FetchInit, FetchLike } from './fetch-like';

export interface JsonRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: unknown;
  bearerToken?: string;
  timeoutMs: number;
}

/** Sends a JSON request; resolves the parsed answer (undefined when empty), rejects with HttpError on non-2xx. */
export async function requestJson(fetchFn: FetchLike, request: JsonRequest): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: FetchInit = { method: request.method, headers };
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(request.body);
  }
  if (request.bearerToken !== undefined) headers.Authorization = `Bearer ${request.bearerToken}`;

  const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
  if (controller) init.signal = controller.signal;
  const timer = controller ? setTimeout(() => controller.abort(), request.timeoutMs) : undefined;
  let status: number;
  let ok: boolean;
  let text: string;
  try {
    const response = await fetchFn(request.url, init);
    ({ status, ok } = response);
    text = await response.text();
  } catch (error) {
    const reason = controller?.signal.aborted ? `timed out after ${request.timeoutMs} ms` : describe(error);
    throw new SdkError(`${request.method} ${request.url} failed: ${reason}`);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }

  const body = parseBody(text);
  if (!ok) {
    const serverMessage = body.ok && isRecord(body.value) && typeof body.value.message === 'string' ? body.value.message : undefined;
    throw new HttpError(status, `${request.method} ${request.url} answered ${status}${serverMessage ? `: ${serverMessage}` : ''}`, serverMessage);
  }
  if (!body.ok) throw new ProtocolError(`${request.method} ${request.url} answered ${status} with a body that is not JSON`);
  return body.value;
}

function parseBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
