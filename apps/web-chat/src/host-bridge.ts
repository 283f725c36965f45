/** Messages between the page and what hosts it: a native web view (React Native, Cordova's InAppBrowser) or the embed's iframe parent. See docs/sdk-protocol.md. */
export type HostCommand = 'closeBot' | 'reloadBot';

/** What the page tells its host: closed by the user, conversation shown, a bot message arrived, or a bot → app event. */
export type HostMessage = { type: 'close' | 'ready' } | { type: 'message'; id: string; direction: string } | { type: 'event'; id: string; event: unknown };

interface NativeBridge {
  postMessage(message: string): void;
}

type BridgeWindow = Window & {
  ReactNativeWebView?: NativeBridge;
  cordova_iab?: NativeBridge; // cordova-plugin-inappbrowser on Android
  webkit?: { messageHandlers?: { cordova_iab?: NativeBridge } }; // … and on iOS
};

/** Whether a native shell (React Native, Cordova) hosts the page, rather than a browser tab or the embed's iframe. */
export function inNativeShell(): boolean {
  const w = window as BridgeWindow;
  return Boolean(w.ReactNativeWebView ?? w.cordova_iab ?? w.webkit?.messageHandlers?.cordova_iab);
}

/** Tells the host what happened on the page (the native shell or the embed acts on it). */
export function notifyHost(message: HostMessage): void {
  const text = JSON.stringify({ source: 'bot-chat', ...message });
  const w = window as BridgeWindow;
  const native = w.ReactNativeWebView ?? w.cordova_iab ?? w.webkit?.messageHandlers?.cordova_iab;
  if (native) native.postMessage(text);
  if (window.parent !== window) window.parent.postMessage(text, '*');
}

/**
 * Calls `handler` for closeBot / reloadBot sent by the host: an iframe parent's window.postMessage, or
 * react-native-webview's postMessage (dispatched on `window` on iOS, on `document` on Android; a
 * capturing listener on `window` hears both, once).
 */
export function onHostCommand(handler: (command: HostCommand) => void): void {
  window.addEventListener(
    'message',
    (e: Event) => {
      if (!(e instanceof MessageEvent)) return;
      let data: unknown = e.data;
      if (typeof data === 'string') {
        try {
          data = JSON.parse(data);
        } catch {
          return;
        }
      }
      const type = (data as { type?: unknown } | null)?.type;
      if (type === 'closeBot' || type === 'reloadBot') handler(type);
    },
    true,
  );
}
