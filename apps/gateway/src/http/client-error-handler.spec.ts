import type { Socket } from 'node:net';
import { answerClientError } from './client-error-handler.js';

/** The bytes written to a socket stand-in, and whether it was closed. */
function answer(code: string, rawPacket?: string): { text: string; destroyed: boolean } {
  let text = '';
  const socket = { destroyed: false, writable: true, write: (s: string) => (text += s), destroy: () => (socket.destroyed = true) };
  const err = Object.assign(new Error('parse'), { code, rawPacket: rawPacket === undefined ? undefined : Buffer.from(rawPacket, 'latin1') });
  answerClientError(err, socket as unknown as Socket);
  return { text, destroyed: socket.destroyed };
}

describe('answerClientError', () => {
  it('answers an API request with headers too large with 431 and the platform body', () => {
    const { text, destroyed } = answer('HPE_HEADER_OVERFLOW', `POST /v1/bots/b/sessions HTTP/1.1\r\nx-big: ${'a'.repeat(100)}`);
    expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(text).toContain('Content-Type: application/json');
    expect(text.endsWith('{"message":"The request headers are too large","status":"error"}')).toBe(true);
    expect(destroyed).toBe(true);
  });

  it.each(['GET /web/bot?botId=b&payload=%7B', 'GET /web/bot/?botId=b', 'GET /web/bot HTTP/1.1'])('answers a chat link too long (%s…) with a page for people', (line) => {
    const { text } = answer('HPE_HEADER_OVERFLOW', `${line}${'a'.repeat(100)}`);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text).toContain('Content-Type: text/html; charset=utf-8');
    expect(text).toContain('<h1 style="font-size:1.3rem">This chat link does not work</h1>');
    expect(text).not.toContain('"status":"error"');
  });

  it('keeps JSON for other paths that start alike, and for other parse errors', () => {
    expect(answer('HPE_HEADER_OVERFLOW', 'GET /web/botx?a=1').text).toContain('application/json');
    expect(answer('HPE_INVALID_METHOD', 'GET /web/bot?x').text).toMatch(/^HTTP\/1\.1 400 [^]*"The request is not well-formed HTTP"/);
  });
});
