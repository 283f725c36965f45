import { InvalidPayloadError } from '../errors';
import { parseBotPayload } from './parse-bot-payload';

describe('parseBotPayload', () => {
  it('parses a JSON string', () => expect(parseBotPayload('{"JourneySlug":"renewal","n":1}')).toEqual({ JourneySlug: 'renewal', n: 1 }));

  it('passes an object through unchanged', () => {
    const payload = { JourneySlug: 'renewal' };
    expect(parseBotPayload(payload)).toBe(payload);
  });

  it.each(['', '   ', '{', "{'a':1}", 'undefined', '{"a":1}x'])('refuses invalid JSON %j', (value) => {
    expect(() => parseBotPayload(value)).toThrow(expect.objectContaining({ name: 'InvalidPayloadError', reason: 'invalidJson' }));
  });

  it.each(['null', '[]', '[{"a":1}]', '"text"', '42', 'true'])('refuses JSON that is not an object (%s)', (value) => {
    expect(() => parseBotPayload(value)).toThrow(expect.objectContaining({ reason: 'notObject' }));
  });

  it.each([null, undefined, 42, true, [], [{ a: 1 }]])('refuses the non-object value %p', (value) => {
    expect(() => parseBotPayload(value)).toThrow(InvalidPayloadError);
    expect(() => parseBotPayload(value)).toThrow(expect.objectContaining({ reason: 'notObject' }));
  });

  it('names what it got in the message', () => expect(() => parseBotPayload('[]')).toThrow('got an array'));
});
