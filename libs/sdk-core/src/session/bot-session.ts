import type { BotConfig, ResolvedBotConfig } from '../config/bot-config';
import { DEFAULT_REQUEST_TIMEOUT_MS, resolveApiBaseUrl, resolveFetch, resolveWebSocket, type SdkOptions } from '../config/sdk-options';
import { checkPayload, validateBotConfig } from '../config/validate-config';
import { ProtocolError, SdkError, SessionError, ValidationError } from '../errors';
import type { AnyBotEvents, BotEvent, BotEventMeta } from '../events/bot-event';
import { Listeners } from '../events/listeners';
import { isRecord } from '../json/check-json';
import type { JsonObject } from '../json/json-types';
import type { FetchLike } from '../transport/fetch-like';
import { requestJson } from '../transport/http';
import { buildWebViewUrl } from '../webview/build-web-view-url';
import { chatPageCommand, parseChatPageMessage, type ChatPageCommand, type ChatPageHandlers, type ChatPageLink, type ChatPageView } from '../webview/chat-page-bridge';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { EventStream, type StreamState } from './event-stream';
import { resolveLiveness, type LivenessOptions } from './liveness';
import { sessionEventsPath, sessionsPath, type AppEventRequest, type StartSessionRequest, type StartSessionResponse } from './protocol';

export interface BotSessionOptions extends SdkOptions {
  /** Reconnect backoff of the event stream. */
  reconnect?: Partial<BackoffOptions>;
  /** When the event stream drops a connection that went silent and reconnects. */
  liveness?: Partial<LivenessOptions>;
}

export type SessionState = 'idle' | 'starting' | StreamState;

/**
 * A conversation with one bot: starts a session on the platform, receives the bot's events over a
 * WebSocket stream and sends the app's events back.
 *
 * `Events` maps the bot's event names to their data (see `createBotSession`); with it, `on` accepts
 * only those names and types the data. Without it, any name is accepted.
 */
export class BotSession<Events extends { [K in keyof Events]: object } = AnyBotEvents> {
  readonly config: ResolvedBotConfig;
  private readonly options: BotSessionOptions;
  private readonly token: string;
  private readonly apiBaseUrl: string;
  private readonly fetchFn: FetchLike;
  private readonly liveness: LivenessOptions;
  private readonly events = new Listeners<[BotEvent, BotEventMeta]>();
  private readonly errors = new Listeners<[SdkError]>();
  private readonly states = new Listeners<[SessionState]>();
  private current: StartSessionResponse | null = null;
  private stream: EventStream | null = null;
  private pending: Promise<StartSessionResponse> | null = null;
  // Bumped by closeBot so that a start still in flight does not open a stream afterwards.
  private generation = 0;
  private stateValue: SessionState = 'idle';
  private readonly views = new Set<ChatPageView>();

  constructor(config: BotConfig, options: BotSessionOptions) {
    this.config = validateBotConfig(config, options);
    if (this.config.ymAuthenticationToken === undefined) {
      throw new ValidationError('ymAuthenticationToken', 'required', 'A bot session needs the chat auth token (ymAuthenticationToken)');
    }
    this.token = this.config.ymAuthenticationToken;
    this.options = options;
    this.apiBaseUrl = resolveApiBaseUrl(options, this.config.customBaseUrl);
    this.fetchFn = resolveFetch(options);
    this.liveness = resolveLiveness(options.liveness);
  }

  get state(): SessionState {
    return this.stateValue;
  }

  get sessionId(): string | null {
    return this.current?.sessionId ?? null;
  }

  /** The address for the app's web view (see `buildWebViewUrl`). */
  webViewUrl(): string {
    return buildWebViewUrl(this.config, this.options);
  }

  /**
   * Links the chat page shown in the app's web view to this session: `closeBot()` and `reloadBot()`
   * are posted to the page too (it closes its stream; it starts a new session and shows the transcript
   * again), and the page's close button closes this session and calls `onClose`. Hand the web view's
   * messages to the link's `receive` (react-native-webview: `onMessage={(e) => link.receive(e.nativeEvent.data)}`).
   */
  connectWebView(view: ChatPageView, handlers: ChatPageHandlers = {}): ChatPageLink {
    this.views.add(view);
    return {
      receive: (data) => {
        const message = parseChatPageMessage(data);
        if (message === 'close') {
          this.stop();
          this.tellViews('closeBot', view); // the page that was closed has stopped itself
          handlers.onClose?.();
        } else if (message === 'ready') {
          handlers.onReady?.();
        }
        return message !== null;
      },
      disconnect: () => {
        this.views.delete(view);
      },
    };
  }

  /** Listener for the bot's events; returns a function that removes it. */
  onEventFromBot(listener: (event: BotEvent, meta: BotEventMeta) => void): () => void {
    return this.events.add(listener);
  }

  /**
   * Listener for one event name; gets the event's data (typed by the session's event map) and its
   * meta. Returns a function that removes it.
   */
  on<K extends keyof Events & string>(code: K, listener: (data: Events[K], meta: BotEventMeta) => void): () => void {
    return this.events.add((event, meta) => {
      if (event.code === code) listener(event.data as Events[K], meta);
    });
  }

  /** Listener for malformed events, stream failures and listeners that threw; returns a remover. */
  onError(listener: (error: SdkError) => void): () => void {
    return this.errors.add(listener);
  }

  onStateChange(listener: (state: SessionState) => void): () => void {
    return this.states.add(listener);
  }

  /** Starts the session and its event stream. Calling it again while started returns the same session. */
  start(): Promise<StartSessionResponse> {
    if (this.current && this.stream && this.stateValue !== 'closed') return Promise.resolve(this.current);
    if (!this.pending) {
      this.pending = this.begin().finally(() => {
        this.pending = null;
      });
    }
    return this.pending;
  }

  /** Sends an event to the bot: POST …/sessions/{sessionId}/events with `{ code, data }`. */
  async sendEventToBot(code: string, data: Readonly<Record<string, unknown>> = {}): Promise<void> {
    if (typeof code !== 'string' || code.trim() === '') throw new ValidationError('code', 'blank', 'The event code must be a non-empty string');
    const problem = checkPayload(data, 'data');
    if (problem) throw problem;
    if (!this.current) throw new SessionError('notStarted', 'Start the session before sending events to the bot');
    const body: AppEventRequest = { code, data: data as JsonObject };
    await requestJson(this.fetchFn, {
      method: 'POST',
      url: this.apiBaseUrl + sessionEventsPath(this.config.botId, this.current.sessionId),
      body,
      bearerToken: this.token,
      timeoutMs: this.timeoutMs(),
    });
  }

  /** Closes the event stream and stops reconnecting, and closes the linked chat pages. Listeners stay registered. */
  closeBot(): void {
    this.stop();
    this.tellViews('closeBot');
  }

  /** Closes the current session and starts a new one; linked chat pages start over too. */
  reloadBot(): Promise<StartSessionResponse> {
    this.stop();
    this.tellViews('reloadBot');
    return this.start();
  }

  private stop(): void {
    this.generation += 1;
    this.stream?.close();
    this.stream = null;
    this.current = null;
    this.setState('closed');
  }

  private tellViews(command: ChatPageCommand, except?: ChatPageView): void {
    const text = chatPageCommand(command);
    for (const view of this.views) {
      if (view === except) continue;
      try {
        view.postMessage(text);
      } catch (error) {
        this.report(new SessionError('listenerFailed', `Posting ${command} to the web view failed`, undefined, error));
      }
    }
  }

  private async begin(): Promise<StartSessionResponse> {
    const generation = this.generation;
    const WebSocket = resolveWebSocket(this.options);
    this.setState('starting');
    let session: StartSessionResponse;
    try {
      session = await this.createSession();
    } catch (error) {
      if (generation === this.generation) this.setState('closed');
      throw error;
    }
    if (generation !== this.generation) return session;
    this.stream?.close();
    this.current = session;
    this.stream = new EventStream(
      {
        url: session.streamUrl,
        token: this.token,
        WebSocket,
        backoff: { ...DEFAULT_BACKOFF, ...this.options.reconnect },
        liveness: this.liveness,
      },
      {
        event: (event, meta) => this.deliver(event, meta),
        error: (error) => this.report(error),
        state: (state) => this.setState(state),
        sessionGone: () => this.restart(),
      },
    );
    this.stream.open();
    return session;
  }

  private async createSession(): Promise<StartSessionResponse> {
    const body: StartSessionRequest = { authToken: this.token, payload: this.config.payload, version: this.config.version };
    if (this.config.deviceToken !== undefined) body.deviceToken = this.config.deviceToken;
    const url = this.apiBaseUrl + sessionsPath(this.config.botId);
    const answer = await requestJson(this.fetchFn, { method: 'POST', url, body, timeoutMs: this.timeoutMs() });
    if (!isRecord(answer) || typeof answer.sessionId !== 'string' || answer.sessionId === '' || typeof answer.streamUrl !== 'string') {
      throw new ProtocolError(`POST ${url} must answer { sessionId, streamUrl }`);
    }
    const streamUrl = answer.streamUrl;
    if (!/^wss?:\/\/[^/?#\s]+/i.test(streamUrl)) throw new ProtocolError('streamUrl must be an absolute ws:// or wss:// address');
    // A session started over https must not continue over an unencrypted socket.
    if (/^https:/i.test(this.apiBaseUrl) && !/^wss:/i.test(streamUrl)) throw new ProtocolError('streamUrl must be wss:// when the API is https');
    return { sessionId: answer.sessionId, streamUrl };
  }

  private deliver(event: BotEvent, meta: BotEventMeta): void {
    for (const thrown of this.events.emit(event, meta)) {
      this.report(new SessionError('listenerFailed', `An onEventFromBot listener threw on "${event.code}"`, undefined, thrown));
    }
  }

  // The session expired on the server: a new one for the SDK only (the page renews its own).
  private restart(): void {
    this.stop();
    this.start().catch((error: unknown) => {
      this.report(new SessionError('restartFailed', 'The session expired and could not be restarted; call reloadBot()', undefined, error));
    });
  }

  private report(error: SdkError): void {
    // Errors of onError listeners are dropped: there is nowhere left to report them.
    this.errors.emit(error);
  }

  private setState(state: SessionState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    this.states.emit(state);
  }

  private timeoutMs(): number {
    return this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }
}

/**
 * `new BotSession(config, options)` with the app's event map, e.g.
 * `createBotSession<{ 'order.updated': { orderId: string } }>(config, options)`.
 */
export function createBotSession<Events extends { [K in keyof Events]: object } = AnyBotEvents>(config: BotConfig, options: BotSessionOptions): BotSession<Events> {
  return new BotSession<Events>(config, options);
}
