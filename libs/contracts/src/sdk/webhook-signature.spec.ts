import { signPostback } from '../callbacks/standard-webhook-signature.js';
import { generateWebhookSecret, signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';

describe('webhook signature', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: 'session.started', payload: '{"a":1}' });
  const t = 1_760_000_000;

  it('verifies what the platform signs', () => {
    const header = signWebhookBody(secret, body, t);
    expect(header).toMatch(/^t=1760000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature({ secret, header, rawBody: body, now: t + 10 })).toBe(true);
    expect(verifyWebhookSignature({ secret, header, rawBody: Buffer.from(body), now: t })).toBe(true);
  });

  it('refuses a tampered body, another secret, a changed timestamp and a malformed header', () => {
    const header = signWebhookBody(secret, body, t);
    expect(verifyWebhookSignature({ secret, header, rawBody: body.replace('session.started', 'session.ended'), now: t })).toBe(false);
    expect(verifyWebhookSignature({ secret: generateWebhookSecret(), header, rawBody: body, now: t })).toBe(false);
    expect(verifyWebhookSignature({ secret, header: header.replace(`t=${t}`, `t=${t + 1}`), rawBody: body, now: t })).toBe(false);
    for (const bad of [undefined, '', 'v1=abc', `t=${t}`, `t=x,v1=${'0'.repeat(64)}`]) {
      expect(verifyWebhookSignature({ secret, header: bad, rawBody: body, now: t })).toBe(false);
    }
  });

  it('refuses a replay outside the tolerance', () => {
    const header = signWebhookBody(secret, body, t);
    expect(verifyWebhookSignature({ secret, header, rawBody: body, now: t + 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, rawBody: body, now: t + 3600, toleranceSeconds: 7200 })).toBe(true);
  });

  it('accepts any of several v1 signatures (secret rotation) and generates distinct secrets', () => {
    const other = generateWebhookSecret();
    const header = `${signWebhookBody(other, body, t)},${signWebhookBody(secret, body, t).split(',')[1]}`;
    expect(verifyWebhookSignature({ secret, header, rawBody: body, now: t })).toBe(true);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(other).not.toBe(secret);
  });

  it('signs with every secret of a rotation, one v1= each', () => {
    const other = generateWebhookSecret();
    const header = signWebhookBody([secret, other], body, t);
    expect(header).toMatch(/^t=1760000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const s of [secret, other]) expect(verifyWebhookSignature({ secret: s, header, rawBody: body, now: t })).toBe(true);
    expect(verifyWebhookSignature({ secret: generateWebhookSecret(), header, rawBody: body, now: t })).toBe(false);
  });

  it('given all headers, checks the Standard Webhooks ones, and x-platform-signature when a call has none', () => {
    const standard = signPostback(secret, 'd1', body, t);
    expect(verifyWebhookSignature({ secret, headers: standard, rawBody: body, now: t })).toBe(true);
    expect(verifyWebhookSignature({ secret, headers: { ...standard, 'webhook-id': 'd2' }, rawBody: body, now: t })).toBe(false);
    // A forged Standard signature is not rescued by a valid x-platform-signature beside it.
    const both = { ...standard, 'webhook-signature': 'v1,AAAA', 'x-platform-signature': signWebhookBody(secret, body, t) };
    expect(verifyWebhookSignature({ secret, headers: both, rawBody: body, now: t })).toBe(false);
    expect(verifyWebhookSignature({ secret, headers: { 'x-platform-signature': signWebhookBody(secret, body, t) }, rawBody: body, now: t })).toBe(true);
  });
});
