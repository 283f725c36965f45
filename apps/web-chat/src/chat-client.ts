import { ChatApiError } from './chat-api.error.js';
import { type PageMessageView, seqOf } from './order.js';
import type { PageParams } from './page-params.js';

export type ClientState = 'connecting' | 'online' | 'offline' | 'closed';

interface StoredSession {
  sessionId: string;
  streamUrl: string;
}

export interface ChatClientHandlers {
  message(view: PageMessageView): void;
  state(state: ClientState, detail?: string): void;
  /** A bot → app event (any but the page's own conversation messages and typing signals): handed to the host before it is acked. */
  event?(id: string, event: unknown): void;
  /** The bot started (true) or stopped (false) working on the user's message, at `at` (ISO). */
  typing?(typing: boolean, at: string): void;
}

/** The bot's display name and picture address (BotProfileService). */
export interface BotProfile {
  displayName: string | null;
  avatarUrl: string | null;
}

const WEB_EVENT = 'sendWebEvent';
const MESSAGE_CODE = 'conversation.message';
const TYPING_CODE = 'conversation.typing';
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The page's side of the SDK protocol: starts (or, after a reload, resumes) a session, reads the
 * transcript, sends the user's messages, and receives the bot's over the event stream (auth frame,
 * acks, reconnection with backoff, a new session when the old one is gone).
 */
export class ChatClient {
  private session?: StoredSession;
  private socket?: WebSocket;
  private attempts = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private closed = false;
  private readonly storageKey: string;

  constructor(
    private readonly params: PageParams,
    private readonly api: string,
    private readonly on: ChatClientHandlers,
  ) {
    this.storageKey = `botchat:${params.botId}`;
  }

  /** Resumes the stored session when it is still this user's, else starts one; returns the transcript. */
  async open(): Promise<PageMessageView[]> {
    this.closed = false;
    const stored = this.load();
    if (stored) {
      this.session = stored;
      try {
        const transcript = await this.transcript();
        this.connect();
        return transcript;
      } catch (err) {
        if (!(err instanceof ChatApiError) || (err.status !== 401 && err.status !== 404)) throw err;
      }
    }
    await this.start();
    const transcript = await this.transcript();
    this.connect();
    return transcript;
  }

  /** Forgets the session and starts a new one (the SDK's reloadBot). */
  async restart(): Promise<PageMessageView[]> {
    this.stop();
    sessionStorage.removeItem(this.storageKey);
    this.session = undefined;
    return this.open();
  }

  /**
   * Sends what the user typed, or a tapped quick reply's payload with its title. `clientMessageId` is the
   * same on every attempt of one message: the server records it once. Answers its id and its place in
   * the conversation.
   */
  async send(text: string, payload: string | undefined, clientMessageId: string): Promise<{ messageId: string; seq?: string }> {
    try {
      return await this.post(text, payload, clientMessageId);
    } catch (err) {
      if (!(err instanceof ChatApiError) || err.status !== 404) throw err;
      await this.restart(); // the session expired meanwhile
      return this.post(text, payload, clientMessageId);
    }
  }

  /** Sends a picture or file (its bytes as the body); answers the recorded message. */
  async upload(file: Blob & { name?: string }, clientMessageId: string): Promise<PageMessageView & { messageId: string }> {
    const s = this.session;
    if (!s) throw new ChatApiError(0, 'The chat is not connected yet');
    const res = await fetch(`${this.api}/v1/bots/${encodeURIComponent(this.params.botId)}/sessions/${encodeURIComponent(s.sessionId)}/attachments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.params.token}`,
        'content-type': file.type || 'application/octet-stream',
        'x-file-name': encodeURIComponent(file.name ?? 'file'),
        'x-client-message-id': clientMessageId,
      },
      body: file,
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new ChatApiError(res.status, String(answer.message ?? `The file could not be sent (${res.status})`));
    return {
      id: String(answer.messageId),
      messageId: String(answer.messageId),
      conversationId: String(answer.conversationId),
      direction: 'inbound',
      type: 'attachment',
      content: { attachment: answer.attachment },
      status: null,
      createdAt: new Date().toISOString(),
      seq: seqOf(answer.seq),
    };
  }

  /** The bot's profile; empty when it cannot be read (the page then says "Chat"). */
  async profile(): Promise<BotProfile> {
    try {
      const res = await fetch(`${this.api}/v1/bots/${encodeURIComponent(this.params.botId)}/profile`);
      const body = res.ok ? await res.json() : {};
      return { displayName: typeof body.displayName === 'string' ? body.displayName : null, avatarUrl: typeof body.avatarUrl === 'string' ? body.avatarUrl : null };
    } catch {
      return { displayName: null, avatarUrl: null };
    }
  }

  /** Closes the stream (the SDK's closeBot); `open` starts again. */
  stop(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket?.close(1000);
    this.socket = undefined;
    this.on.state('closed');
  }

  private async post(text: string, payload: string | undefined, clientMessageId: string): Promise<{ messageId: string; seq?: string }> {
    const answer = await this.call<{ messageId: string; seq?: unknown }>('POST', 'messages', { text, ...(payload === undefined ? {} : { payload }), clientMessageId });
    return { messageId: answer.messageId, seq: seqOf(answer.seq) };
  }

  private async start(): Promise<void> {
    const res = await fetch(`${this.api}/v1/bots/${encodeURIComponent(this.params.botId)}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ authToken: this.params.token, payload: this.params.payload, version: this.params.version }),
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new ChatApiError(res.status, String(body.message ?? `The chat could not start (${res.status})`));
    this.session = { sessionId: String(body.sessionId), streamUrl: String(body.streamUrl) };
    sessionStorage.setItem(this.storageKey, JSON.stringify(this.session));
  }

  private async transcript(): Promise<PageMessageView[]> {
    return (await this.call<{ messages: PageMessageView[] }>('GET', 'messages')).messages;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const s = this.session!;
    // A request the network holds for long is given up and tried again (the outbox keeps the message).
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    const res = await fetch(`${this.api}/v1/bots/${encodeURIComponent(this.params.botId)}/sessions/${encodeURIComponent(s.sessionId)}/${path}`, {
      method,
      headers: { authorization: `Bearer ${this.params.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: abort.signal,
    }).finally(() => clearTimeout(timer));
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new ChatApiError(res.status, String(answer.message ?? `The server answered ${res.status}`));
    return answer as T;
  }

  private connect(): void {
    if (this.closed || !this.session) return;
    this.on.state('connecting');
    const socket = new WebSocket(this.session.streamUrl);
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token: this.params.token }));
    socket.onmessage = (e) => this.frame(socket, e.data);
    socket.onclose = (e) => {
      if (this.socket !== socket || this.closed) return;
      this.socket = undefined;
      if (e.code === 4401 || e.code === 4403) return this.on.state('offline', 'This chat link is no longer valid.');
      if (e.code === 4404) {
        void this.restart().catch(() => this.retry());
        return;
      }
      this.retry();
    };
  }

  private retry(): void {
    this.on.state('offline', 'Reconnecting…');
    const delay = Math.min(30_000, 500 * 2 ** this.attempts++) * (0.5 + Math.random() / 2);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private frame(socket: WebSocket, data: unknown): void {
    let frame: { type?: string; id?: string; event?: { code?: string; data?: { code?: string; data?: string } } };
    try {
      frame = JSON.parse(String(data));
    } catch {
      return;
    }
    if (frame.type === 'ready') {
      this.attempts = 0;
      this.on.state('online');
      return;
    }
    if (frame.type !== 'event' || typeof frame.id !== 'string') return;
    const event = frame.event;
    const pageCode = event?.code === WEB_EVENT && typeof event.data?.data === 'string' ? event.data.code : undefined;
    const forPage = pageCode === MESSAGE_CODE || pageCode === TYPING_CODE;
    if (!forPage) this.on.event?.(frame.id, event);
    socket.send(JSON.stringify({ type: 'ack', id: frame.id }));
    if (!forPage) return;
    try {
      if (pageCode === TYPING_CODE) {
        const signal = JSON.parse(event!.data!.data!) as { typing?: unknown; at?: unknown };
        this.on.typing?.(signal.typing === true, typeof signal.at === 'string' ? signal.at : new Date().toISOString());
        return;
      }
      this.on.message(JSON.parse(event!.data!.data!) as PageMessageView);
    } catch {
      // a malformed event is acked and skipped: redelivering it would fail the same way
    }
  }

  private load(): StoredSession | undefined {
    try {
      const value = JSON.parse(sessionStorage.getItem(this.storageKey) ?? 'null');
      return value && typeof value.sessionId === 'string' && typeof value.streamUrl === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
}
