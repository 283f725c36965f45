import { createHmac } from 'node:crypto';
import { POSTBACK_HEADERS, signPostback, verifyPostbackSignature } from './standard-webhook-signature.js';

const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64url');
const body = '{"type":"message.status","id":"m.sent"}';

describe('postback signatures (Standard Webhooks)', () => {
  it('signs "id.timestamp.body" with HMAC-SHA256 under the decoded secret, base64, as v1', () => {
    const headers = signPostback(secret, 'm.sent', body, 1_700_000_000);
    const expected = createHmac('sha256', Buffer.alloc(32, 7)).update(`m.sent.1700000000.${body}`).digest('base64');
    expect(headers).toEqual({ 'webhook-id': 'm.sent', 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${expected}` });
  });

  it('verifies its own signature, and any one of several space-separated signatures', () => {
    const headers = signPostback(secret, 'm.sent', body, 1_700_000_000);
    expect(verifyPostbackSignature({ secret, headers, rawBody: body, now: 1_700_000_010 })).toBe(true);
    const rotated = { ...headers, [POSTBACK_HEADERS.signature]: `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    expect(verifyPostbackSignature({ secret, headers: rotated, rawBody: Buffer.from(body), now: 1_700_000_010 })).toBe(true);
  });

  it('signs with each secret of a rotation, space-separated', () => {
    const other = 'whsec_' + Buffer.alloc(32, 8).toString('base64url');
    const headers = signPostback([secret, other], 'm.sent', body, 1_700_000_000);
    expect(headers['webhook-signature'].split(' ')).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    for (const s of [secret, other]) expect(verifyPostbackSignature({ secret: s, headers, rawBody: body, now: 1_700_000_000 })).toBe(true);
  });

  it.each([
    ['another body', { rawBody: body + ' ' }],
    ['another secret', { secret: 'whsec_' + Buffer.alloc(32, 8).toString('base64url') }],
    ['a stale timestamp', { now: 1_700_000_000 + 301 }],
    ['another id', { headers: { ...signPostback(secret, 'm.sent', body, 1_700_000_000), 'webhook-id': 'm.read' } }],
    ['a v2 signature', { headers: { ...signPostback(secret, 'm.sent', body, 1_700_000_000), 'webhook-signature': 'v2,abc' } }],
    ['no headers', { headers: {} }],
  ])('refuses %s', (_name, change) => {
    const options = { secret, headers: signPostback(secret, 'm.sent', body, 1_700_000_000), rawBody: body, now: 1_700_000_005, ...change };
    expect(verifyPostbackSignature(options)).toBe(false);
  });
});
