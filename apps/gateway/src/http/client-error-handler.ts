import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers what Node's HTTP parser refuses before any route sees it (malformed request line or headers,
 * headers too large, a request that timed out) with the platform's `{message,status}` body, in place of
 * Fastify's own. Fastify's `clientErrorHandler` option; the socket is closed after the answer.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorAnswer(err.code);
  const body = JSON.stringify({ message, status: 'error' });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are too large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request was not received in time'];
  return [400, 'The request is not well-formed HTTP'];
}
