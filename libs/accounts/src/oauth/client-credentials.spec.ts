import { parseClientCredentials } from './client-credentials.js';
import { OAuthError } from './oauth-error.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function errorOf(fn: () => unknown): OAuthError {
  try {
    fn();
  } catch (err) {
    return err as OAuthError;
  }
  throw new Error('did not throw');
}

describe('parseClientCredentials', () => {
  it('reads HTTP Basic, form-decoding id and secret (RFC 6749 §2.3.1)', () => {
    expect(parseClientCredentials(basic('my%20client', 'p%3Ass+word'), {})).toEqual({
      clientId: 'my client',
      clientSecret: 'p:ss word',
      method: 'client_secret_basic',
    });
  });

  it('reads client_secret_post and public clients', () => {
    expect(parseClientCredentials(undefined, { client_id: 'a', client_secret: 'b' })).toEqual({ clientId: 'a', clientSecret: 'b', method: 'client_secret_post' });
    expect(parseClientCredentials(undefined, { client_id: 'a' })).toEqual({ clientId: 'a', method: 'none' });
  });

  it('refuses two methods at once and a body client_id differing from Basic', () => {
    expect(errorOf(() => parseClientCredentials(basic('a', 'b'), { client_secret: 'b' })).error).toBe('invalid_request');
    expect(errorOf(() => parseClientCredentials(basic('a', 'b'), { client_id: 'c' })).error).toBe('invalid_request');
    expect(parseClientCredentials(basic('a', 'b'), { client_id: 'a' }).clientId).toBe('a');
  });

  it('answers invalid_client, flagged as Basic, for malformed or other schemes', () => {
    for (const header of ['Bearer abc', 'Basic !!!', basic('', 'x'), `Basic ${Buffer.from('nocolon').toString('base64')}`, basic('%E0%A4%A', 'x')]) {
      const err = errorOf(() => parseClientCredentials(header, {}));
      expect(err.error).toBe('invalid_client');
      expect(err.basicAttempted).toBe(true);
      expect(err.status).toBe(401);
    }
  });

  it('invalid_client without any credentials', () => {
    const err = errorOf(() => parseClientCredentials(undefined, {}));
    expect(err.error).toBe('invalid_client');
    expect(err.basicAttempted).toBe(false);
  });
});
