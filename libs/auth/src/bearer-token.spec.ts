import { bearerToken } from './bearer-token.js';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, the scheme in any case, trailing blanks ignored', () => {
    expect(bearerToken({ authorization: 'Bearer abc.def' })).toBe('abc.def');
    expect(bearerToken({ authorization: 'bearer   abc ' })).toBe('abc');
  });

  it('has no token for other schemes, an empty value, two words or no header', () => {
    expect(bearerToken({ authorization: 'Basic YTpi' })).toBeUndefined();
    expect(bearerToken({ authorization: 'Bearer ' })).toBeUndefined();
    expect(bearerToken({ authorization: 'Bearer a b' })).toBeUndefined();
    expect(bearerToken({})).toBeUndefined();
  });
});
