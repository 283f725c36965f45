import { unstorableTextIn } from './unstorable-text.js';

/** What the parser gives for `text`, and what unstorableTextIn says of it. */
const check = (text: string) => unstorableTextIn(JSON.parse(text), text);

describe('unstorableTextIn', () => {
  it('names the field holding a NUL character', () => {
    expect(check(String.raw`{"payload":{"userName":"Zo\u0000"}}`)).toBe('payload.userName contains a NUL character (\\u0000), which cannot be stored');
  });

  it('names an unpaired high or low surrogate, with its index in an array', () => {
    expect(check(String.raw`{"text":"a\ud800b"}`)).toBe('text contains an unpaired UTF-16 surrogate (\\ud800), which is not a character');
    expect(check(String.raw`{"cards":[{"title":"ok"},{"title":"\udc00"}]}`)).toBe('cards.1.title contains an unpaired UTF-16 surrogate (\\udc00), which is not a character');
    expect(check(String.raw`["\ud83d"]`)).toBe('0 contains an unpaired UTF-16 surrogate (\\ud83d), which is not a character');
  });

  it('checks field names and a body that is one string', () => {
    expect(check(String.raw`{"config":{"a\u0000":1}}`)).toBe('a field name in config contains a NUL character (\\u0000), which cannot be stored');
    expect(check(String.raw`"\u0000"`)).toBe('the body contains a NUL character (\\u0000), which cannot be stored');
  });

  it('accepts an escaped emoji (a surrogate pair), other escapes, and a backslash followed by "u0000"', () => {
    expect(check(String.raw`{"text":"\ud83d\ude00 \u00e9 \n","literal":"\\u0000","n":1,"none":null}`)).toBeNull();
  });

  it('does not walk a body without a \\u escape', () => {
    // A value the text cannot have produced: without an escape in the text, nothing is looked at.
    expect(unstorableTextIn({ text: 'a\u0000b' }, '{"text":"ab"}')).toBeNull();
  });
});
