import { useEffect, useRef, useState } from 'preact/hooks';
import type { MessageLiveEvent, MessageStreamTicketResponse } from '@platform/contracts/views';
import { api } from './api.js';

/** `stream`: events arrive as they happen; `polling`: the stream is down, the page reads again every few seconds. */
export type LiveMode = 'off' | 'connecting' | 'stream' | 'polling';

const RETRY_MS = [2000, 4000, 8000, 15000, 30000];

/**
 * The bot's message events from the gateway's Server-Sent Events stream. An EventSource cannot send the
 * access token, so each connection first takes a single-use ticket with it (POST …/stream-ticket); the
 * token never goes into a URL. When the stream cannot open or drops, the mode turns to `polling` and a
 * new ticket is tried later (2 s, then longer); `onOpen` runs each time the stream (re)opens, so the
 * page reads once to cover what happened while it was down.
 */
export function useMessageEvents(botId: string, enabled: boolean, onEvent: (e: MessageLiveEvent) => void, onOpen: () => void): LiveMode {
  const [mode, setMode] = useState<LiveMode>(enabled ? 'connecting' : 'off');
  const handlers = useRef({ onEvent, onOpen });
  handlers.current = { onEvent, onOpen };

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') {
      setMode(enabled ? 'polling' : 'off');
      return;
    }
    let stopped = false;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;

    const fallBack = () => {
      source?.close();
      source = null;
      if (stopped) return;
      setMode('polling');
      retry = setTimeout(connect, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
      failures++;
    };
    const connect = async () => {
      if (stopped) return;
      let ticket: MessageStreamTicketResponse;
      try {
        ticket = await api<MessageStreamTicketResponse>('POST', `/v1/bots/${botId}/messages/stream-ticket`);
      } catch {
        return fallBack();
      }
      if (stopped) return;
      const es = new EventSource(ticket.url);
      source = es;
      es.addEventListener('ready', () => {
        failures = 0;
        setMode('stream');
        handlers.current.onOpen();
      });
      es.addEventListener('status', (e) => handlers.current.onEvent(JSON.parse((e as MessageEvent<string>).data) as MessageLiveEvent));
      // The server ends a stream after an access token's lifetime: take a new ticket at once.
      es.addEventListener('end', () => {
        es.close();
        if (source === es) void connect();
      });
      // EventSource would reconnect by itself with the same URL, whose ticket is spent: take over instead.
      es.onerror = () => {
        if (source === es) fallBack();
      };
    };
    setMode('connecting');
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [botId, enabled]);

  return mode;
}
