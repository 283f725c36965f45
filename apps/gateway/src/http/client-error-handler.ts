import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** Request lines of the hosted chat page (GET /web/bot, /web/bot?…): a person's browser, answered with a page. */
const CHAT_PAGE_REQUEST = /^GET \/web\/bot\/?[? ]/;

/**
 * Answers what Node's HTTP parser refuses before any route sees it (malformed request line or headers,
 * headers too large, a request that timed out) with the platform's `{message,status}` body, in place of
 * Fastify's own. Fastify's `clientErrorHandler` option; the socket is closed after the answer.
 * A chat link too long for the server (an old link with a large payload in its query) is a person's
 * browser: it gets a short HTML page that says what happened, not JSON.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorAnswer(err.code);
  const page = status === 431 && Buffer.isBuffer(err.rawPacket) && CHAT_PAGE_REQUEST.test(err.rawPacket.subarray(0, 16).toString('latin1'));
  const body = page ? LINK_TOO_LONG_PAGE : JSON.stringify({ message, status: 'error' });
  const type = page ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8';
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are too large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request was not received in time'];
  return [400, 'The request is not well-formed HTTP'];
}

// Self-contained, with no script or stylesheet to fetch: the browser shows it as it is.
export const LINK_TOO_LONG_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>This chat link does not work</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;color:#1b1b1b;max-width:36em;margin:0 auto;padding:32px 24px">
<main><h1 style="font-size:1.3rem">This chat link does not work</h1>
<p>The link is too long for the chat server to open. It was probably made by an older version of the app or site that sent you here.</p>
<p>Go back and open the chat from there again. If it keeps happening, let them know; updating the app usually fixes it.</p></main>
</body></html>`;
