// The component with the real React (installed in this repo) and a recording WebView in place of
// react-native-webview. Server rendering runs no effects: the links it makes are BotChatController.connect's, tested beside it.
import { createElement } from 'react';
// @ts-expect-error react-dom has no types installed here; the test needs only this function
import { renderToStaticMarkup } from 'react-dom/server';
import { BotChatView } from './bot-chat-view';
import { createBotChat } from './bot-chat-controller';
import { rendered } from './testing/recording-webview.spec-helper';

describe('BotChatView', () => {
  it("renders react-native-webview's WebView with the controller's page, bridge and style", () => {
    const controller = createBotChat<{ logout: { actionType: string } }>({ botId: 'x1', ymAuthenticationToken: 'chat_tok' }, { cloudHost: 'cloud.example.com' });
    const style = { flex: 1 };
    renderToStaticMarkup(createElement(BotChatView, { controller, style }));
    expect(rendered).toHaveLength(1);
    const props = rendered[0];
    expect(props.source).toEqual({ uri: controller.url });
    expect(props.style).toBe(style);
    expect(props.ref).toEqual({ current: null });
    const closes: number[] = [];
    controller.onClose(() => closes.push(1));
    (props.onMessage as (e: { nativeEvent: { data: string } }) => void)({ nativeEvent: { data: '{"source":"bot-chat","type":"close"}' } });
    expect(closes).toEqual([1]);
  });
});
