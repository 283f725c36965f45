import { pickEncoding } from './web-chat-page.route.js';

describe('pickEncoding', () => {
  const both = { br: 1, gz: 1 };
  it('prefers brotli, then gzip, among what the client accepts and the build made', () => {
    expect(pickEncoding('gzip, deflate, br', both)).toBe('br');
    expect(pickEncoding('gzip', both)).toBe('gzip');
    expect(pickEncoding('br', { gz: 1 })).toBeUndefined();
    expect(pickEncoding('*', both)).toBe('gzip');
  });

  it('sends the file as it is to a client that accepts neither, or refuses one with q=0', () => {
    expect(pickEncoding(undefined, both)).toBeUndefined();
    expect(pickEncoding('identity', both)).toBeUndefined();
    expect(pickEncoding('br;q=0, gzip;q=0', both)).toBeUndefined();
    expect(pickEncoding('br;q=0, gzip;q=0.5', both)).toBe('gzip');
  });
});
