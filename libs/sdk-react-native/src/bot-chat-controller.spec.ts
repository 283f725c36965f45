import { EventDecodeError, ValidationError, type SdkError } from '@bot-platform/sdk-core';
import { createBotChat } from './bot-chat-controller';

const CONFIG = { botId: 'x1', ymAuthenticationToken: 'chat_tok', payload: { userName: 'Ada' } };
const page = (message: object) => JSON.stringify({ source: 'bot-chat', ...message });
const nativeEvent = (data: string) => ({ nativeEvent: { data } });

function chat() {
  const controller = createBotChat<{ logout: { actionType: string } }>(CONFIG, { cloudHost: 'cloud.example.com' });
  const posted: string[] = [];
  const urls: string[] = [];
  let view: { postMessage(m: string): void } | null = { postMessage: (m) => posted.push(m) };
  const disconnect = controller.connect(
    () => view,
    (u) => urls.push(u),
  );
  return { controller, posted, urls, disconnect, unmount: () => (view = null) };
}

describe('BotChatController (React Native)', () => {
  it('gives the WebView the chat page (token and payload in the fragment), storage on, its origin only', () => {
    const props = createBotChat(CONFIG, { cloudHost: 'cloud.example.com' }).webViewProps();
    expect(props.source.uri).toBe('https://cloud.example.com/web/bot?botId=x1&version=2&enableSpeech=false#ymAuthenticationToken=chat_tok&payload=%7B%22userName%22%3A%22Ada%22%7D');
    expect(props.originWhitelist).toEqual(['https://cloud.example.com']);
    expect(props.domStorageEnabled).toBe(true);
    expect(createBotChat(CONFIG, { cloudHost: 'cloud.example.com', apiBaseUrl: 'http://10.0.2.2:3000' }).webViewProps().originWhitelist).toEqual(['http://10.0.2.2:3000']);
    expect(() => createBotChat({ ...CONFIG, ymAuthenticationToken: 'has space' }, { cloudHost: 'cloud.example.com' })).toThrow(ValidationError);
  });

  it("delivers the bot's events from the WebView's onMessage to the app, and the page's close", () => {
    const { controller } = chat();
    const got: string[] = [];
    const errors: SdkError[] = [];
    controller.on('logout', (data) => got.push(`logout:${data.actionType}`));
    controller.onClose(() => got.push('closed'));
    controller.onError((e) => errors.push(e));
    const { onMessage } = controller.webViewProps();
    onMessage(nativeEvent(page({ type: 'event', id: '7-0', event: { code: 'sendReactNativeEvent', data: { code: 'logout', data: '{"actionType":"menu"}' } } })));
    onMessage(nativeEvent(page({ type: 'event', id: '8-0', event: { code: 'sendReactNativeEvent', data: { code: 'logout', data: 'nope' } } })));
    onMessage(nativeEvent('{"some":"other message of the app"}'));
    onMessage(nativeEvent(page({ type: 'close' })));
    expect(got).toEqual(['logout:menu', 'closed']);
    expect(errors.map((e) => e instanceof EventDecodeError && e.reason)).toEqual(['dataNotJson']);
  });

  it('posts closeBot / reloadBot through the mounted WebView, and nothing once unmounted or disconnected', () => {
    const { controller, posted, unmount, disconnect } = chat();
    controller.closeBot();
    controller.reloadBot();
    unmount();
    controller.closeBot();
    disconnect();
    controller.reloadBot();
    expect(posted).toEqual(['{"type":"closeBot"}', '{"type":"reloadBot"}']);
  });

  it('opens the bot of a tapped FCM notification (botId, journeySlug) and re-renders with its address', () => {
    const { controller, urls } = chat();
    expect(controller.handleNotificationTap({ data: { campaign: 'x' } })).toBe(false);
    expect(controller.handleNotificationTap(null)).toBe(false);
    expect(controller.handleNotificationTap({ data: { botId: 'x9', journeySlug: 'renewal' } })).toBe(true);
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('botId=x9');
    expect(decodeURIComponent(urls[0])).toContain('"JourneySlug":"renewal"');
    expect(controller.webViewProps().source.uri).toBe(urls[0]);
  });

  it('counts unread bot messages while the chat is hidden', () => {
    const { controller } = chat();
    const { onMessage } = controller.webViewProps();
    controller.setVisible(false);
    onMessage(nativeEvent(page({ type: 'message', id: 'm1', direction: 'outbound' })));
    expect(controller.unreadCount).toBe(1);
    controller.setVisible(true);
    expect(controller.unreadCount).toBe(0);
  });
});
