import { HttpError, ProtocolError, SdkError } from '../errors';
import { recordingFetch } from '../testing/recording-fetch.spec-helper';
import type { FetchLike } from './fetch-like';
import { requestJson } from './http';

describe('requestJson', () => {
  it('sends JSON and parses the JSON answer', async () => {
    const { fetch, calls } = recordingFetch([{ status: 200, body: { a: 1 } }]);
    await expect(requestJson(fetch, { method: 'POST', url: 'http://127.0.0.1:1/x', body: { b: 2 }, timeoutMs: 1000 })).resolves.toEqual({ a: 1 });
    expect(calls[0].init.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
    expect(calls[0].init.body).toBe('{"b":2}');
  });

  it('resolves undefined for an empty answer', async () => {
    const { fetch } = recordingFetch([{ status: 204 }]);
    await expect(requestJson(fetch, { method: 'DELETE', url: 'http://127.0.0.1:1/x', timeoutMs: 1000 })).resolves.toBeUndefined();
  });

  it('turns a non-2xx answer into HttpError, with or without a JSON body', async () => {
    const { fetch } = recordingFetch([
      { status: 401, body: { message: 'bad token', status: 'error' } },
      { status: 502, body: '<html>' },
    ]);
    await expect(requestJson(fetch, { method: 'GET', url: 'http://127.0.0.1:1/x', timeoutMs: 1000 })).rejects.toMatchObject({ status: 401, serverMessage: 'bad token' });
    const second = requestJson(fetch, { method: 'GET', url: 'http://127.0.0.1:1/x', timeoutMs: 1000 });
    await expect(second).rejects.toBeInstanceOf(HttpError);
    await expect(second).rejects.toMatchObject({ status: 502, serverMessage: undefined });
  });

  it('refuses a 2xx answer that is not JSON', async () => {
    const { fetch } = recordingFetch([{ status: 200, body: 'ok!' }]);
    await expect(requestJson(fetch, { method: 'GET', url: 'http://127.0.0.1:1/x', timeoutMs: 1000 })).rejects.toBeInstanceOf(ProtocolError);
  });

  it('aborts after the timeout', async () => {
    const hanging: FetchLike = (_url, init) => new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const failure = requestJson(hanging, { method: 'GET', url: 'http://127.0.0.1:1/x', timeoutMs: 30 });
    await expect(failure).rejects.toBeInstanceOf(SdkError);
    await expect(failure).rejects.toThrow('timed out after 30 ms');
  });

  it('wraps network failures in SdkError', async () => {
    const failing: FetchLike = () => Promise.reject(new TypeError('fetch failed'));
    await expect(requestJson(failing, { method: 'GET', url: 'http://127.0.0.1:1/x', timeoutMs: 1000 })).rejects.toThrow('fetch failed');
  });
});
