import { EventDecodeError } from '../errors';
import { decodeServerFrame } from './decode-frame';

const event = { code: 'sendReactNativeEvent', data: { code: 'logout', data: '{"actionType":"menu"}' } };

describe('decodeServerFrame', () => {
  it('decodes an event frame', () => {
    expect(decodeServerFrame(JSON.stringify({ type: 'event', id: 'a1', event }))).toEqual({
      kind: 'event',
      id: 'a1',
      event: { code: 'logout', data: { actionType: 'menu' } },
      platformCode: 'sendReactNativeEvent',
    });
  });

  it('decodes a ready frame with the announced heartbeat interval, and without one from older servers', () => {
    expect(decodeServerFrame('{"type":"ready","heartbeatMs":25000}')).toStrictEqual({ kind: 'ready', heartbeatMs: 25000 });
    expect(decodeServerFrame('{"type":"ready"}')).toStrictEqual({ kind: 'ready' });
    for (const bad of ['0', '-5', '"25000"', 'null']) {
      expect(decodeServerFrame(`{"type":"ready","heartbeatMs":${bad}}`)).toStrictEqual({ kind: 'ready' });
    }
  });

  it('decodes a heartbeat frame', () => expect(decodeServerFrame('{"type":"heartbeat"}')).toEqual({ kind: 'heartbeat' }));

  it('ignores frame types it does not know', () => expect(decodeServerFrame('{"type":"typing"}')).toEqual({ kind: 'ignored', type: 'typing' }));

  it.each([
    ['binaryFrame', new Uint8Array([123, 125])],
    ['notJson', 'not json'],
    ['notJson', ''],
    ['notObject', '[1]'],
    ['notObject', 'null'],
    ['missingType', '{"id":"1"}'],
    ['missingType', '{"type":5}'],
    ['missingId', JSON.stringify({ type: 'event', event })],
    ['missingId', JSON.stringify({ type: 'event', id: '', event })],
    ['missingId', JSON.stringify({ type: 'event', id: 7, event })],
  ])('reports %s without an id', (reason, raw) => {
    const frame = decodeServerFrame(raw);
    expect(frame.kind).toBe('malformed');
    if (frame.kind !== 'malformed') return;
    expect(frame.id).toBeUndefined();
    expect(frame.error).toBeInstanceOf(EventDecodeError);
    expect(frame.error.reason).toBe(reason);
  });

  it('keeps the id of an event frame whose event is malformed, so that it can be acked', () => {
    const frame = decodeServerFrame(JSON.stringify({ type: 'event', id: 'b2', event: { ...event, data: { code: 'logout', data: 'nope' } } }));
    expect(frame).toMatchObject({ kind: 'malformed', id: 'b2', error: { reason: 'dataNotJson', eventId: 'b2' } });
  });
});
