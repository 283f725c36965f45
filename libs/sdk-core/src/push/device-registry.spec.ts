import { HttpError, ValidationError } from '../errors';
import { recordingFetch } from '../testing/recording-fetch.spec-helper';
import { DeviceRegistry, type DeviceRegistryOptions } from './device-registry';

function registry(answers?: Array<{ status: number; body?: unknown }>, options: Partial<DeviceRegistryOptions> = {}) {
  const recorder = recordingFetch(answers);
  const devices = new DeviceRegistry({ cloudHost: 'cloud.example.com', botId: 'x 1', bearerToken: 'chat_tok', fetch: recorder.fetch, ...options });
  return { devices, calls: recorder.calls };
}

describe('DeviceRegistry', () => {
  it('registerDevice POSTs { userId, token, platform } with the bearer token', async () => {
    const { devices, calls } = registry([{ status: 201, body: { message: 'registered', status: 'success' } }]);
    await devices.registerDevice({ userId: 'u1', token: 'fcm:abc', platform: 'android' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://cloud.example.com/v1/bots/x%201/devices');
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.headers).toMatchObject({ Authorization: 'Bearer chat_tok', 'Content-Type': 'application/json' });
    expect(calls[0].body).toEqual({ userId: 'u1', token: 'fcm:abc', platform: 'android' });
  });

  it('leaves userId out of the body when none is given (a chat auth token names the user)', async () => {
    const { devices, calls } = registry([{ status: 201, body: { message: 'registered', status: 'success' } }]);
    await devices.registerDevice({ token: 'fcm:abc', platform: 'ios' });
    expect(calls[0].body).toEqual({ token: 'fcm:abc', platform: 'ios' });
  });

  it('unlinkDeviceToken DELETEs the encoded token with the bearer token', async () => {
    const { devices, calls } = registry([{ status: 204 }], { apiBaseUrl: 'http://127.0.0.1:9/api/' });
    await devices.unlinkDeviceToken('fcm:a/b');
    expect(calls[0].url).toBe('http://127.0.0.1:9/api/v1/bots/x%201/devices/fcm%3Aa%2Fb');
    expect(calls[0].init.method).toBe('DELETE');
    expect(calls[0].init.headers.Authorization).toBe('Bearer chat_tok');
    expect(calls[0].init.body).toBeUndefined();
  });

  it.each(['', ' ', '\t\n'])('refuses the blank token %j before any request', async (token) => {
    const { devices, calls } = registry();
    await expect(devices.registerDevice({ userId: 'u1', token, platform: 'ios' })).rejects.toMatchObject({ name: 'ValidationError', field: 'token', rule: 'blank' });
    await expect(devices.unlinkDeviceToken(token)).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toHaveLength(0);
  });

  it('refuses a missing token, blank userId and unknown platform before any request', async () => {
    const { devices, calls } = registry();
    await expect(devices.registerDevice({ userId: 'u1', token: undefined as unknown as string, platform: 'ios' })).rejects.toMatchObject({ rule: 'required' });
    await expect(devices.registerDevice({ userId: ' ', token: 't', platform: 'ios' })).rejects.toMatchObject({ field: 'userId' });
    await expect(devices.registerDevice({ userId: 'u', token: 't', platform: 'symbian' as 'ios' })).rejects.toMatchObject({ field: 'platform', rule: 'oneOf' });
    expect(calls).toHaveLength(0);
  });

  it('refuses to be built without botId or bearer token', () => {
    expect(() => registry(undefined, { botId: '' })).toThrow(expect.objectContaining({ field: 'botId' }));
    expect(() => registry(undefined, { bearerToken: ' ' })).toThrow(expect.objectContaining({ field: 'bearerToken' }));
  });

  it('rejects with HttpError carrying the server message', async () => {
    const { devices } = registry([{ status: 400, body: { message: 'token must not be blank', status: 'error' } }]);
    const failure = devices.registerDevice({ userId: 'u', token: 't', platform: 'web' });
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toMatchObject({ status: 400, serverMessage: 'token must not be blank' });
  });
});
