import { ChatHost, type AnyBotEvents, type BotConfig, type ChatHostOptions, type ChatPageView } from '@bot-platform/sdk-core';

/** react-native-webview's `onMessage` event, as far as the SDK reads it. */
export interface WebViewMessageEvent {
  nativeEvent: { data: string };
}

/** A push message as @react-native-firebase/messaging hands it (`onNotificationOpenedApp`, `getInitialNotification`): FCM data values are strings. */
export interface RemoteMessageLike {
  data?: Readonly<Record<string, unknown>>;
}

/** The props BotChatView gives react-native-webview's WebView (besides `ref` and `style`). */
export interface ChatWebViewProps {
  source: { uri: string };
  onMessage(event: WebViewMessageEvent): void;
  /** The page keeps its session and the outbox of unsent messages in sessionStorage. */
  domStorageEnabled: true;
  javaScriptEnabled: true;
  /** The microphone button (enableSpeech) asks for it on the page. */
  mediaPlaybackRequiresUserAction: false;
  originWhitelist: string[];
}

/**
 * Everything the React Native chat does, without React: the page's address, the bridge (what the page
 * posts in, closeBot / reloadBot out), bot events, unread count and push taps. BotChatView is only its
 * web view. Create one per chat screen and keep it (e.g. in a ref or a module).
 */
export class BotChatController<Events extends Record<string, unknown> = AnyBotEvents> extends ChatHost<Events> {
  /**
   * Links the component's web view: `current()` returns the WebView ref's value (null while unmounted)
   * and `onUrl` re-renders with a new address. Returns what undoes it (an effect's cleanup).
   */
  connect(current: () => ChatPageView | null, onUrl: (url: string) => void): () => void {
    this.attach({
      postMessage: (message) => current()?.postMessage(message),
    });
    const stop = this.onUrlChange(onUrl);
    return () => {
      stop();
      this.detach();
    };
  }

  /** The WebView's props for the current address. */
  webViewProps(url = this.url): ChatWebViewProps {
    return {
      source: { uri: url },
      onMessage: (event) => {
        this.receive(event.nativeEvent.data);
      },
      domStorageEnabled: true,
      javaScriptEnabled: true,
      mediaPlaybackRequiresUserAction: false,
      originWhitelist: [origin(url)],
    };
  }

  /**
   * A tapped push notification (from @react-native-firebase/messaging): when its data names a bot
   * (`botId`, optionally `journeySlug`), the chat switches to it and this returns true, and the app
   * shows the chat screen. False for a notification that is not the SDK's.
   */
  handleNotificationTap(message: RemoteMessageLike | null | undefined): boolean {
    return this.openFromNotification(message?.data) !== null;
  }
}

/** A controller for `config`: throws ValidationError naming the field when the config is bad. */
export function createBotChat<Events extends Record<string, unknown> = AnyBotEvents>(config: BotConfig, options: ChatHostOptions): BotChatController<Events> {
  return new BotChatController<Events>(config, options);
}

// React Native's URL has no `origin` (it throws): the scheme and host by hand.
function origin(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(url)?.[0] ?? url;
}
