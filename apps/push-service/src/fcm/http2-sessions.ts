import type { ClientHttp2Session, ClientHttp2Stream, OutgoingHttpHeaders } from 'node:http2';

export interface Http2Sessions {
  /** A new stream on a session of `origin` that has a free stream slot; opens a session when none has. */
  request(origin: string, headers: OutgoingHttpHeaders): ClientHttp2Stream;
  closeAll(): void;
}

/**
 * HTTP/2 sessions per origin that keep within the server's SETTINGS_MAX_CONCURRENT_STREAMS (FCM: 100).
 * Piling more streams onto one session would not fail, but before the server's SETTINGS arrive it
 * refuses the excess (REFUSED_STREAM), and after that Node queues them inside the session, where
 * they wait for a slot with their timeout running. Until a session has the server's SETTINGS it
 * takes 100 streams, the least RFC 9113 recommends servers allow.
 *
 * Self-contained (node:http2 passed in, nothing else from this module) because the sender threads
 * run its source: see http2ThreadMain.
 */
export function http2Sessions(http2: typeof import('node:http2')): Http2Sessions {
  const byOrigin = new Map<string, Array<{ session: ClientHttp2Session; open: number }>>();
  const connect = (origin: string, list: Array<{ session: ClientHttp2Session; open: number }>) => {
    const entry = { session: http2.connect(origin), open: 0 };
    const drop = () => {
      const i = list.indexOf(entry);
      if (i >= 0) list.splice(i, 1);
    };
    entry.session.on('error', drop); // each stream reports the failure to its caller
    entry.session.on('goaway', drop);
    entry.session.on('close', drop);
    list.push(entry);
    return entry;
  };
  return {
    request(origin, headers) {
      let list = byOrigin.get(origin);
      if (!list) byOrigin.set(origin, (list = []));
      const entry = list.find((e) => !e.session.closed && !e.session.destroyed && e.open < (e.session.remoteSettings.maxConcurrentStreams ?? 100)) ?? connect(origin, list);
      const stream = entry.session.request(headers);
      entry.open++;
      stream.once('close', () => entry.open--);
      return stream;
    },
    closeAll() {
      for (const list of byOrigin.values()) for (const { session } of list.splice(0)) session.close();
    },
  };
}
