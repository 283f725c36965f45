import type { BotConfig } from '../config/bot-config';
import type { SdkOptions } from '../config/sdk-options';
import { resolveApiBaseUrl } from '../config/sdk-options';
import { SdkError } from '../errors';
import type { AnyBotEvents, BotEvent, BotEventMeta } from '../events/bot-event';
import { decodeBotEvent } from '../events/decode-event';
import { Listeners } from '../events/listeners';
import { handleNotification, type NotificationData } from '../push/handle-notification';
import { RecentIds } from '../session/recent-ids';
import { buildWebViewUrl } from './build-web-view-url';
import { chatPageCommand, parsePageMessage, type ChatPageCommand, type ChatPageView } from './chat-page-bridge';

/** Where the chat page is: `cloudHost` (and the config's region host), or `apiBaseUrl` when set (a self-hosted or local platform). */
export type ChatHostOptions = Pick<SdkOptions, 'cloudHost' | 'apiBaseUrl'>;

/**
 * The host side of a chat page in a web view, with no UI of its own: the React Native and Cordova
 * packages wrap it. It knows the page's address (token and payload in the fragment), reads what the
 * page posts (close, ready, the bot's messages and the bot → app events it forwards), posts closeBot /
 * reloadBot into the page, and opens the bot a push notification names. The page holds the one
 * session and its event stream; this forwards what the page hands over, so the app never runs a
 * second stream that would race the page for the same events.
 */
export class ChatHost<Events extends Record<string, unknown> = AnyBotEvents> {
  private configValue: BotConfig;
  private urlValue: string;
  private view: ChatPageView | null = null;
  private unread = 0;
  private visible = true;
  private restartOnReady = false;
  private readonly seen = new RecentIds();
  private readonly events = new Listeners<[BotEvent, BotEventMeta]>();
  private readonly errors = new Listeners<[SdkError]>();
  private readonly urls = new Listeners<[string]>();
  private readonly closes = new Listeners<[]>();
  private readonly readies = new Listeners<[]>();
  private readonly unreads = new Listeners<[number]>();

  /** Throws ValidationError naming the field on a bad config, as buildWebViewUrl does. */
  constructor(
    config: BotConfig,
    private readonly options: ChatHostOptions,
  ) {
    this.configValue = config;
    this.urlValue = this.build(config);
  }

  /** The address to load in the web view. It changes on openFromNotification and reloadBot(config). */
  get url(): string {
    return this.urlValue;
  }

  get config(): BotConfig {
    return this.configValue;
  }

  /** Bot messages that arrived while the chat was hidden (setVisible(false)). */
  get unreadCount(): number {
    return this.unread;
  }

  /** Links the web view (anything with `postMessage(text)`, as react-native-webview's ref). */
  attach(view: ChatPageView): void {
    this.view = view;
  }

  detach(): void {
    this.view = null;
  }

  /** Hand it every message of the web view; returns whether it was the chat page's. */
  receive(data: unknown): boolean {
    const message = parsePageMessage(data);
    if (!message) return false;
    switch (message.type) {
      case 'close':
        this.report(this.closes.emit());
        break;
      case 'ready':
        // The page resumes the session it stored, which the old address started: a new address (a
        // journey from a push tap) must reach the bot as a new session, so the page starts over once.
        if (this.restartOnReady) {
          this.restartOnReady = false;
          this.post('reloadBot');
        } else this.report(this.readies.emit());
        break;
      case 'message':
        if (!this.visible && message.direction === 'outbound' && this.seen.add(`m:${message.id}`)) this.setUnread(this.unread + 1);
        break;
      case 'event': {
        // The page acks after posting: a redelivery after a reload has the same id and is dropped here.
        if (!this.seen.add(`e:${message.id}`)) break;
        const decoded = decodeBotEvent(message.event, message.id);
        if (!decoded.ok) this.report([decoded.error]);
        else this.report(this.events.emit(decoded.event, { id: message.id, platformCode: decoded.platformCode }));
      }
    }
    return true;
  }

  /** The chat is shown (true) or hidden (false): bot messages count as unread only while hidden; showing it clears the count. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.setUnread(0);
  }

  /** Closes the page's event stream (it shows "Chat closed."); reloadBot starts it again. */
  closeBot(): void {
    this.post('closeBot');
  }

  /**
   * Starts the page over on a new session. With a config: the web view must load the new `url`
   * (onUrlChange tells the component), since the page reads the config from its address.
   */
  reloadBot(config?: BotConfig): void {
    if (config) this.setConfig(config);
    else this.post('reloadBot');
  }

  /**
   * A push notification was tapped: when its data names a bot (`botId`, and `journeySlug` put into the
   * payload as `JourneySlug`), the chat switches to that bot and returns the new url; null when the
   * notification is not the SDK's. The base config keeps the app's token and payload.
   */
  openFromNotification(data: NotificationData | null | undefined): string | null {
    const next = handleNotification(data, this.configValue);
    if (!next) return null;
    this.setConfig(next);
    return this.urlValue;
  }

  on<K extends keyof Events & string>(code: K, listener: (data: Events[K], meta: BotEventMeta) => void): () => void {
    return this.events.add((event, meta) => {
      if (event.code === code) listener(event.data as Events[K], meta);
    });
  }

  onEventFromBot(listener: (event: BotEvent, meta: BotEventMeta) => void): () => void {
    return this.events.add(listener);
  }

  /** The user closed the chat on the page (its stream is closed already): hide the web view. */
  onClose(listener: () => void): () => void {
    return this.closes.add(listener);
  }

  /** The page shows the conversation (after each load and reload). */
  onReady(listener: () => void): () => void {
    return this.readies.add(listener);
  }

  onUnreadChange(listener: (count: number) => void): () => void {
    return this.unreads.add(listener);
  }

  /** The web view must load a new address (a notification's bot, reloadBot with a config). */
  onUrlChange(listener: (url: string) => void): () => void {
    return this.urls.add(listener);
  }

  /** Malformed events, a view whose postMessage threw, listeners that threw. */
  onError(listener: (error: SdkError) => void): () => void {
    return this.errors.add(listener);
  }

  private setConfig(config: BotConfig): void {
    const url = this.build(config);
    this.configValue = config;
    if (url === this.urlValue) return this.post('reloadBot');
    this.urlValue = url;
    this.restartOnReady = true;
    this.report(this.urls.emit(url));
  }

  private build(config: BotConfig): string {
    const url = buildWebViewUrl(config, this.options);
    if (this.options.apiBaseUrl === undefined) return url;
    // A self-hosted or local platform serves the page where its API is.
    const origin = resolveApiBaseUrl(this.options);
    return origin + url.slice(url.indexOf('/web/bot'));
  }

  private setUnread(count: number): void {
    if (count === this.unread) return;
    this.unread = count;
    this.report(this.unreads.emit(count));
  }

  private post(command: ChatPageCommand): void {
    try {
      this.view?.postMessage(chatPageCommand(command));
    } catch (error) {
      this.report([error]);
    }
  }

  private report(thrown: unknown[]): void {
    // An error listener that throws is not reported again: that could loop.
    for (const error of thrown) this.errors.emit(error instanceof SdkError ? error : new SdkError(`A listener or the web view failed: ${String(error)}`));
  }
}
