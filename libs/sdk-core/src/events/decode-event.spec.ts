import { EventDecodeError } from '../errors';
import { decodeBotEvent } from './decode-event';

const good = { code: 'sendReactNativeEvent', data: { code: 'logout', data: '{"actionType":"button"}' } };

function reasonOf(value: unknown): string {
  const decoded = decodeBotEvent(value, 'e7');
  if (decoded.ok) throw new Error('expected a decode failure');
  expect(decoded.error).toBeInstanceOf(EventDecodeError);
  expect(decoded.error.eventId).toBe('e7');
  expect(decoded.error.message).toContain('e7');
  return decoded.error.reason;
}

describe('decodeBotEvent', () => {
  it('decodes the inner JSON string into an object', () => {
    expect(decodeBotEvent(good)).toEqual({ ok: true, event: { code: 'logout', data: { actionType: 'button' } }, platformCode: 'sendReactNativeEvent' });
  });

  it.each(['sendAndroidEvent', 'sendIosEvent', 'sendFlutterEvent', 'sendCordovaEvent'])('accepts the platform code %s', (code) => {
    expect(decodeBotEvent({ ...good, code }).ok).toBe(true);
  });

  it.each([null, 'x', [good]])('refuses a non-object event %p', (value) => expect(reasonOf(value)).toBe('badEvent'));
  it.each([undefined, 1, '', 'sendEvent', 'logout', 'sendreactNativeEvent', 'sendReactNativeEvents'])('refuses the platform code %p', (code) =>
    expect(reasonOf({ ...good, code })).toBe('badPlatformCode'),
  );
  it.each([undefined, null, '{"code":"x"}', []])('refuses inner data %p', (data) => expect(reasonOf({ ...good, data })).toBe('badEvent'));
  it.each([undefined, 3, '', '  '])('refuses the inner code %p', (code) => expect(reasonOf({ ...good, data: { ...good.data, code } })).toBe('badCode'));
  it.each([undefined, { actionType: 'button' }, 5])('refuses inner data that is not a string (%p)', (data) => expect(reasonOf({ ...good, data: { code: 'logout', data } })).toBe('dataNotString'));
  it.each(['', '{', "{'a':1}", 'undefined'])('refuses inner data that is not JSON (%j)', (data) => expect(reasonOf({ ...good, data: { code: 'logout', data } })).toBe('dataNotJson'));
  it.each(['null', '[]', '"text"', '42', 'true'])('refuses inner JSON that is not an object (%s)', (data) => expect(reasonOf({ ...good, data: { code: 'logout', data } })).toBe('dataNotObject'));
});
