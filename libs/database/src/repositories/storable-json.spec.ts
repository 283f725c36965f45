import { storableJson } from './storable-json.js';

describe('storableJson', () => {
  it('replaces NULs and unpaired surrogates with U+FFFD, wherever they are', () => {
    const value = { text: 'a\u0000b', nested: [{ high: 'x\uD800', low: '\uDC00y' }], ['key\u0000']: 1 };
    expect(JSON.parse(storableJson(value))).toEqual({ text: 'a\uFFFDb', nested: [{ high: 'x\uFFFD', low: '\uFFFDy' }], ['key\uFFFD']: 1 });
  });

  it('keeps paired surrogates (an emoji), other escapes, and a backslash followed by "u0000" as text', () => {
    const value = { emoji: '\uD83D\uDE00', tab: 'a\tb', control: '\u0001', literal: '\\u0000 and \\ud800', slashes: '\\\\' };
    expect(JSON.parse(storableJson(value))).toEqual(value);
  });

  it('is JSON.stringify when there is nothing to replace', () => {
    const value = { a: [1, 'two', null, { b: true }] };
    expect(storableJson(value)).toBe(JSON.stringify(value));
  });
});
