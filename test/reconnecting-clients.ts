// Clients that come back as soon as a server ends their stream, as the SDK (WebSocket) and the
// console (EventSource, with a fresh ticket each time) do: a shutdown must not let them in again.
import { request } from 'node:http';
import WebSocket from 'ws';

export interface ReconnectingClients {
  /** Stops reconnecting and closes what is still open. */
  stop(): void;
  /** Streams the server accepted after the first one of each kind. */
  reopened(): number;
}

/**
 * Keeps an SDK WebSocket (`wsUrl`, authenticated with `chatToken`) and a console event stream (a
 * ticket from `ticketUrl` with `accessToken`, then the stream) open against `base`, opening each again
 * every 50 ms after it ends or fails, until stop().
 */
export function reconnectingClients(base: string, wsUrl: string, chatToken: string, ticketUrl: string, accessToken: string): ReconnectingClients {
  let stopped = false;
  let opened = 0;
  const open: Array<() => void> = [];
  const again = (fn: () => void) => {
    if (!stopped) setTimeout(fn, 50);
  };

  const socket = () => {
    const ws = new WebSocket(wsUrl);
    open.push(() => ws.terminate());
    ws.on('open', () => {
      opened++;
      ws.send(JSON.stringify({ type: 'auth', token: chatToken }));
    });
    ws.on('error', () => undefined);
    ws.on('close', () => again(socket));
  };

  const events = () => {
    fetch(ticketUrl, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } })
      .then(async (res) => {
        if (res.status !== 201) return again(events);
        const { url } = (await res.json()) as { url: string };
        const req = request(`${base}${url}`, { headers: { accept: 'text/event-stream' } }, (stream) => {
          if (stream.statusCode === 200) opened++;
          stream.resume();
          stream.on('close', () => again(events));
        });
        open.push(() => req.destroy());
        req.on('error', () => again(events));
        req.end();
      })
      .catch(() => again(events));
  };

  socket();
  events();
  return {
    stop() {
      stopped = true;
      for (const close of open) close();
    },
    reopened: () => Math.max(0, opened - 2),
  };
}
