import { MAX_RETRY_HINT_MS, classifyCloudApiAnswer, retryHintMs } from './cloud-api-answer.js';

const graphError = (code: number, message: string, details?: string) => ({ error: { code, message, ...(details ? { error_data: { details } } : {}) } });

describe('classifyCloudApiAnswer', () => {
  it('is sent with the wamid of a 2xx answer', () => {
    expect(classifyCloudApiAnswer(200, { messages: [{ id: 'wamid.1' }] })).toEqual({ kind: 'sent', providerMessageId: 'wamid.1' });
  });

  it('retries a 2xx answer without a message id (nothing proves Meta took it)', () => {
    expect(classifyCloudApiAnswer(200, {})).toEqual({ kind: 'retry', code: 'http_200', text: 'WhatsApp Cloud API answered without a message id' });
    expect(classifyCloudApiAnswer(200, undefined).kind).toBe('retry');
  });

  it("retries 429 and 5xx with Meta's code and the most specific text it gave", () => {
    expect(classifyCloudApiAnswer(500, graphError(131000, 'Something went wrong', 'Internal error'))).toEqual({ kind: 'retry', code: '131000', text: 'Internal error' });
    expect(classifyCloudApiAnswer(503, undefined)).toEqual({ kind: 'retry', code: 'http_503', text: 'HTTP 503' });
    expect(classifyCloudApiAnswer(429, graphError(613, 'Calls to this api have exceeded the rate limit')).kind).toBe('retry');
  });

  it("fails any other 4xx at once, keeping Meta's code and message", () => {
    expect(classifyCloudApiAnswer(400, graphError(131026, 'Message undeliverable'))).toEqual({ kind: 'failed', code: '131026', text: 'Message undeliverable' });
    expect(classifyCloudApiAnswer(401, graphError(190, 'Invalid OAuth access token')).kind).toBe('failed');
    expect(classifyCloudApiAnswer(404, undefined)).toEqual({ kind: 'failed', code: 'http_404', text: 'HTTP 404' });
  });

  it("throttles Meta's rate-limit codes by scope instead of failing them", () => {
    expect(classifyCloudApiAnswer(400, graphError(130429, 'Rate limit hit'))).toEqual({ kind: 'throttled', scope: 'sender', code: '130429', text: 'Rate limit hit' });
    expect(classifyCloudApiAnswer(400, graphError(131056, 'pair rate limit hit'))).toMatchObject({ kind: 'throttled', scope: 'pair', code: '131056' });
    expect(classifyCloudApiAnswer(400, graphError(80007, 'Rate limit issues'))).toMatchObject({ kind: 'throttled', scope: 'account', code: '80007' });
    expect(classifyCloudApiAnswer(400, graphError(4, 'Application request limit reached'))).toMatchObject({ kind: 'throttled', scope: 'account', code: '4' });
    expect(classifyCloudApiAnswer(429, graphError(4, 'Application request limit reached'))).toMatchObject({ kind: 'throttled', scope: 'account' });
    // the same codes in a 5xx are a server fault, retried as such
    expect(classifyCloudApiAnswer(500, graphError(4, 'x')).kind).toBe('retry');
  });

  it("keeps Meta's retry hint with a throttling answer", () => {
    expect(classifyCloudApiAnswer(400, graphError(130429, 'Rate limit hit'), { 'retry-after': '3' })).toMatchObject({ kind: 'throttled', retryAfterMs: 3000 });
    expect(classifyCloudApiAnswer(400, graphError(131026, 'Message undeliverable'), { 'retry-after': '3' })).toEqual({ kind: 'failed', code: '131026', text: 'Message undeliverable' });
  });

  it('reads the retry hint from Retry-After (seconds or date) or the business use-case usage header, capped', () => {
    const now = Date.parse('2026-11-25T06:00:00Z');
    expect(retryHintMs({ 'retry-after': '2.5' }, now)).toBe(2500);
    expect(retryHintMs({ 'retry-after': 'Wed, 25 Nov 2026 06:00:10 GMT' }, now)).toBe(10_000);
    expect(retryHintMs({ 'retry-after': '999999' }, now)).toBe(MAX_RETRY_HINT_MS);
    const usage = JSON.stringify({ '1234': [{ type: 'whatsapp', call_count: 100, estimated_time_to_regain_access: 2 }] });
    expect(retryHintMs({ 'x-business-use-case-usage': usage }, now)).toBe(120_000);
    expect(retryHintMs({ 'x-business-use-case-usage': '{"1":[{"estimated_time_to_regain_access":0}]}' }, now)).toBeUndefined();
    expect(retryHintMs({ 'x-business-use-case-usage': 'not json', 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryHintMs({}, now)).toBeUndefined();
  });
});
