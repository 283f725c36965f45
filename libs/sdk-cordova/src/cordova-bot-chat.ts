import { ChatHost, type AnyBotEvents, type BotConfig, type ChatHostOptions } from '@bot-platform/sdk-core';

/** The part of cordova-plugin-inappbrowser's browser object the chat uses. */
export interface InAppBrowserLike {
  addEventListener(type: 'message' | 'exit' | 'loadstop', listener: (event: { data?: unknown }) => void): void;
  executeScript(details: { code: string }, callback?: (result: unknown) => void): void;
  show(): void;
  hide(): void;
  close(): void;
}

/** `cordova.InAppBrowser.open`. */
export type OpenInAppBrowser = (url: string, target: string, features: string) => InAppBrowserLike;

export interface CordovaChatOptions extends ChatHostOptions {
  /** Default: `cordova.InAppBrowser.open` (cordova-plugin-inappbrowser 5 or later, which has the `message` event). */
  open?: OpenInAppBrowser;
  /** InAppBrowser features. Default `location=no,hidenavigationbuttons=yes,toolbar=no`. */
  features?: string;
}

/**
 * The script executeScript runs in the page to hand it closeBot / reloadBot: the same message event a
 * window.postMessage or react-native-webview would dispatch, which the page listens for.
 */
export function commandScript(message: string): string {
  return `window.dispatchEvent(new MessageEvent('message',{data:${JSON.stringify(message)}}));`;
}

/**
 * The chat in Cordova: the hosted chat page in an InAppBrowser window. The page posts through
 * InAppBrowser's `message` event (`webkit.messageHandlers.cordova_iab` on iOS, `cordova_iab` on
 * Android); closeBot / reloadBot go in by executeScript. Everything else (bot events, unread count,
 * push taps) is ChatHost's.
 */
export class CordovaBotChat<Events extends Record<string, unknown> = AnyBotEvents> extends ChatHost<Events> {
  private browser: InAppBrowserLike | null = null;

  constructor(
    config: BotConfig,
    private readonly chatOptions: CordovaChatOptions,
  ) {
    super(config, chatOptions);
    // A notification's bot, or reloadBot(config): an open window loads the new address.
    this.onUrlChange(() => {
      if (this.browser) this.reopen();
    });
    // The page's own close button: the window goes, the page's stream closed already.
    this.onClose(() => this.dispose());
  }

  /** Whether the chat window exists (shown or hidden). */
  get isOpen(): boolean {
    return this.browser !== null;
  }

  /** Opens the chat window, or shows it again when it was hidden. */
  open(): void {
    if (this.browser) return this.show();
    const open = this.chatOptions.open ?? defaultOpen();
    const browser = open(this.url, '_blank', this.chatOptions.features ?? 'location=no,hidenavigationbuttons=yes,toolbar=no');
    this.browser = browser;
    browser.addEventListener('message', (event) => {
      if (this.browser === browser) this.receive(event.data);
    });
    // The user left with the system back button or the window's own close.
    browser.addEventListener('exit', () => {
      if (this.browser === browser) this.forget();
    });
    this.attach({ postMessage: (message) => browser.executeScript({ code: commandScript(message) }) });
    this.setVisible(true);
  }

  /** Hides the window; the page keeps its stream, and the bot's messages count as unread. */
  hide(): void {
    this.browser?.hide();
    this.setVisible(false);
  }

  show(): void {
    this.browser?.show();
    this.setVisible(true);
  }

  /** Closes the window and the page's stream (closeBot first, so the page stops at once). */
  close(): void {
    this.closeBot();
    this.dispose();
  }

  /**
   * A tapped push notification: its data (FCM `data`, or a plugin's flat message such as
   * cordova-plugin-firebasex's) names the bot (`botId`, `journeySlug`): the chat switches to it and
   * opens. False when the notification is not the SDK's.
   */
  handleNotificationTap(message: Readonly<Record<string, unknown>> | null | undefined): boolean {
    const data = message && typeof message.data === 'object' && message.data !== null ? (message.data as Record<string, unknown>) : message;
    const wasOpen = this.isOpen;
    if (this.openFromNotification(data) === null) return false;
    if (!wasOpen) this.open();
    else this.show();
    return true;
  }

  private reopen(): void {
    this.dispose();
    this.open();
  }

  private dispose(): void {
    const browser = this.browser;
    this.forget();
    browser?.close();
  }

  private forget(): void {
    this.browser = null;
    this.detach();
    this.setVisible(false);
  }
}

function defaultOpen(): OpenInAppBrowser {
  const cordova = (globalThis as { cordova?: { InAppBrowser?: { open?: OpenInAppBrowser } } }).cordova;
  const open = cordova?.InAppBrowser?.open;
  if (typeof open !== 'function') throw new Error('cordova-plugin-inappbrowser is not installed: cordova.InAppBrowser.open is missing');
  return open.bind(cordova!.InAppBrowser);
}
