import { pushFailureHttpException } from './push-failure.http.js';

describe('pushFailureHttpException', () => {
  it('answers each kind of push failure with its HTTP status and the push service’s message', () => {
    const answer = (failure: Parameters<typeof pushFailureHttpException>[0]) => {
      const e = pushFailureHttpException(failure);
      return [e.getStatus(), e.getResponse()];
    };
    expect(answer({ kind: 'invalid', message: 'token must not be empty or blank' })).toEqual([400, { message: 'token must not be empty or blank' }]);
    expect(answer({ kind: 'invalid', message: 'rejected', details: { tokenEndpoint: { httpStatus: 400 } } })).toEqual([400, { message: 'rejected', details: { tokenEndpoint: { httpStatus: 400 } } }]);
    expect(answer({ kind: 'not_found', message: 'No notification n1 for this bot' })).toEqual([404, { message: 'No notification n1 for this bot' }]);
    expect(answer({ kind: 'unavailable', message: 'down' })).toEqual([503, { message: 'down' }]);
    expect(answer({ kind: 'provider_unreachable', message: 'FCM could not be reached' })).toEqual([502, { message: 'FCM could not be reached' }]);
    expect(answer({ kind: 'failed', message: 'The push service failed to handle the request' })).toEqual([500, { message: 'The push service failed to handle the request' }]);
  });
});
