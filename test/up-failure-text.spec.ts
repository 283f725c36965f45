import { failureText } from '../tools/up/failure-text.js';

/** "local stack failed to start: undefined" is gone: whatever was thrown, the cause is named. */
describe("up's failure text", () => {
  it.each([
    [new Error('port taken'), 'port taken'],
    [Object.assign(new Error(''), { code: 'ECONNREFUSED' }), 'Error ECONNREFUSED'],
    [new Error('', { cause: new Error('initdb exited with code 1') }), 'Error without a message; caused by: initdb exited with code 1'],
    [new AggregateError([new Error('a'), new Error('b')], 'both failed'), 'both failed; a; b'],
    [{ message: 'a plain object' }, 'a plain object'],
    [{ code: 42 }, '{ code: 42 }'],
    [undefined, 'an unknown error (nothing was thrown with it)'],
    ['', 'an unknown error (an empty message)'],
  ])('%p → %p', (err, text) => {
    expect(failureText(err)).toBe(text);
    expect(failureText(err)).not.toContain('undefined');
  });
});
