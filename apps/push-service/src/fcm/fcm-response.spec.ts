import { classifyFcmResponse, retryAfterMs } from './fcm-response.js';

const error = (status: number, errorStatus: string, message: string, errorCode?: string, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: JSON.stringify({
    error: { code: status, message, status: errorStatus, ...(errorCode ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] } : {}) },
  }),
});

describe('classifyFcmResponse', () => {
  it('sent on 200 with a message name', () => {
    expect(classifyFcmResponse({ status: 200, headers: {}, body: '{"name":"projects/p/messages/1"}' })).toEqual({ kind: 'sent', name: 'projects/p/messages/1' });
  });

  it.each([
    [error(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'), 'UNREGISTERED'],
    [error(403, 'PERMISSION_DENIED', 'SenderId mismatch', 'SENDER_ID_MISMATCH'), 'SENDER_ID_MISMATCH'],
    [error(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'INVALID_ARGUMENT'), 'INVALID_TOKEN'],
  ])('token gone: %#', (res, reason) => {
    expect(classifyFcmResponse(res)).toMatchObject({ kind: 'invalid', reason });
  });

  it('other INVALID_ARGUMENT is a failed message, not a dead device', () => {
    expect(classifyFcmResponse(error(400, 'INVALID_ARGUMENT', 'Invalid value at message.data', 'INVALID_ARGUMENT'))).toMatchObject({ kind: 'failed' });
  });

  it('a 404 without FCM error code does not kill the device', () => {
    expect(classifyFcmResponse(error(404, 'NOT_FOUND', 'Not found'))).toMatchObject({ kind: 'failed' });
  });

  it('429 is a quota retry honouring Retry-After', () => {
    expect(classifyFcmResponse(error(429, 'RESOURCE_EXHAUSTED', 'quota', 'QUOTA_EXCEEDED', { 'retry-after': '7' }))).toEqual({
      kind: 'retry',
      reason: 'QUOTA_EXCEEDED',
      afterMs: 7000,
      quota: true,
    });
  });

  it.each([[error(503, 'UNAVAILABLE', 'down', 'UNAVAILABLE')], [error(500, 'INTERNAL', 'oops', 'INTERNAL')], [{ status: 502, headers: {}, body: '<html>bad gateway</html>' }]])(
    '5xx is retried: %#',
    (res) => {
      expect(classifyFcmResponse(res)).toMatchObject({ kind: 'retry', quota: false });
    },
  );

  it('401 asks for a new access token, except THIRD_PARTY_AUTH_ERROR (APNs/web push credentials)', () => {
    expect(classifyFcmResponse(error(401, 'UNAUTHENTICATED', 'bad token'))).toMatchObject({ kind: 'unauthenticated' });
    expect(classifyFcmResponse(error(401, 'UNAUTHENTICATED', 'apns', 'THIRD_PARTY_AUTH_ERROR'))).toMatchObject({ kind: 'failed', reason: 'THIRD_PARTY_AUTH_ERROR' });
  });

  it('403 PERMISSION_DENIED is a configuration problem of the project', () => {
    expect(classifyFcmResponse(error(403, 'PERMISSION_DENIED', 'API not enabled'))).toMatchObject({ kind: 'config' });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
