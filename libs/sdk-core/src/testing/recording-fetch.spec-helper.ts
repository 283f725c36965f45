import type { FetchInit, FetchLike } from '../transport/fetch-like';

export interface RecordedRequest {
  url: string;
  init: FetchInit;
  /** The JSON body, parsed. */
  body: unknown;
}

/** A fetch that records each request and answers from a queue (default: 204, empty). */
export function recordingFetch(answers: Array<{ status: number; body?: unknown }> = []): { fetch: FetchLike; calls: RecordedRequest[] } {
  const calls: RecordedRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init, body: init.body === undefined ? undefined : JSON.parse(init.body) });
    const answer = answers.shift() ?? { status: 204 };
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, text: async () => text };
  };
  return { fetch, calls };
}
