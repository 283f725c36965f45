import { classifyCloudApiAnswer } from './cloud-api-answer.js';

const graphError = (code: number, message: string, details?: string) => ({ error: { code, message, ...(details ? { error_data: { details } } : {}) } });

describe('classifyCloudApiAnswer', () => {
  it('is sent with the wamid of a 2xx answer', () => {
    expect(classifyCloudApiAnswer(200, { messages: [{ id: 'wamid.1' }] })).toEqual({ kind: 'sent', providerMessageId: 'wamid.1' });
  });

  it('retries a 2xx answer without a message id (nothing proves Meta took it)', () => {
    expect(classifyCloudApiAnswer(200, {})).toEqual({ kind: 'retry', code: 'http_200', text: 'WhatsApp Cloud API answered without a message id' });
    expect(classifyCloudApiAnswer(200, undefined).kind).toBe('retry');
  });

  it('retries 429 and 5xx with Meta\'s code and the most specific text it gave', () => {
    expect(classifyCloudApiAnswer(500, graphError(131000, 'Something went wrong', 'Internal error'))).toEqual({ kind: 'retry', code: '131000', text: 'Internal error' });
    expect(classifyCloudApiAnswer(503, undefined)).toEqual({ kind: 'retry', code: 'http_503', text: 'HTTP 503' });
    expect(classifyCloudApiAnswer(429, graphError(4, 'Application request limit reached')).kind).toBe('retry');
  });

  it('fails any other 4xx at once, keeping Meta\'s code and message', () => {
    expect(classifyCloudApiAnswer(400, graphError(131026, 'Message undeliverable'))).toEqual({ kind: 'failed', code: '131026', text: 'Message undeliverable' });
    expect(classifyCloudApiAnswer(401, graphError(190, 'Invalid OAuth access token')).kind).toBe('failed');
    expect(classifyCloudApiAnswer(404, undefined)).toEqual({ kind: 'failed', code: 'http_404', text: 'HTTP 404' });
  });
});
