import { describe, expect, it } from '@jest/globals';
import { publisherName } from './publisher.js';

describe('publisherName: who published a version, in words', () => {
  const emails = new Map([['u1', 'ana@example.com']]);

  it('names a member by e-mail, one who left as such, and a key as a key', () => {
    expect(publisherName('user:u1', emails)).toBe('ana@example.com');
    expect(publisherName('user:gone', emails)).toBe('a member who has since left the bot');
    expect(publisherName('api-key:k1', emails)).toBe('an API key');
    expect(publisherName(null, emails)).toBeNull();
  });

  it('says only "a member" when the members could not be read', () => {
    expect(publisherName('user:u1', null)).toBe('a member');
  });
});
