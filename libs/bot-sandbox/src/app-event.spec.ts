import { AppEventSnapshot, checkAppEvent } from './app-event.js';

const valid: AppEventSnapshot = {
  eventType: 'object',
  code: 'sendReactNativeEvent',
  codeType: 'string',
  dataType: 'object',
  dataCode: 'openScreen',
  dataCodeType: 'string',
  dataData: '{"screen":"cart"}',
  dataDataType: 'string',
};

describe('checkAppEvent (the rules of POST /v1/bots/{botId}/events)', () => {
  it('accepts a valid event and keeps exactly its three fields', () => {
    expect(checkAppEvent({ ...valid, extra: 'x' })).toEqual({ ok: true, event: { code: 'sendReactNativeEvent', data: { code: 'openScreen', data: '{"screen":"cart"}' } } });
  });

  it.each([
    [{ ...valid, eventType: 'array' }, 'the event must be an object'],
    [{ ...valid, code: undefined, codeType: 'undefined' }, 'code is required'],
    [{ ...valid, code: 5, codeType: 'number' }, 'code must be a string'],
    [{ ...valid, code: 'sendEvent' }, 'send<Platform>Event'],
    [{ ...valid, code: 'sendreactNativeEvent' }, 'send<Platform>Event'],
    [{ ...valid, code: `send${'A'.repeat(60)}Event` }, 'at most 64'],
    [{ ...valid, dataType: 'undefined' }, 'data is required'],
    [{ ...valid, dataType: 'string' }, 'data must be an object'],
    [{ ...valid, dataCode: undefined, dataCodeType: 'undefined' }, 'data.code is required'],
    [{ ...valid, dataCode: '   ' }, 'must not be empty or blank'],
    [{ ...valid, dataCode: 'x'.repeat(101) }, 'at most 100'],
    [{ ...valid, dataData: undefined, dataDataType: 'undefined' }, 'data.data is required'],
    [{ ...valid, dataData: 3, dataDataType: 'number' }, 'data.data must be a string'],
    [{ ...valid, dataData: '[1,2]' }, 'JSON object'],
    [{ ...valid, dataData: '"text"' }, 'JSON object'],
    [{ ...valid, dataData: '{not json' }, 'JSON object'],
    [{ ...valid, dataData: JSON.stringify({ a: 'x'.repeat(16_384) }) }, 'at most 16384'],
  ])('refuses %j (%s)', (snapshot, problem) => {
    const checked = checkAppEvent(snapshot);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toContain(problem);
    expect(!checked.ok && checked.problem).toMatch(/^app\.sendEvent: /);
  });

  it('refuses what is not a snapshot at all', () => {
    expect(checkAppEvent(null).ok).toBe(false);
    expect(checkAppEvent('x').ok).toBe(false);
  });

  it('accepts data.data of exactly 16384 characters', () => {
    const data = JSON.stringify({ a: 'x'.repeat(16_384 - 8) });
    expect(data.length).toBe(16_384);
    expect(checkAppEvent({ ...valid, dataData: data }).ok).toBe(true);
  });
});
