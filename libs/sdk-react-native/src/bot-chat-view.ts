// The only file that touches React and react-native-webview (peer dependencies): it renders the
// controller's web view. Everything else is in BotChatController, which is tested without them.
import { createElement, useEffect, useRef, useState, type ReactElement } from 'react';
import { WebView } from 'react-native-webview';
import type { ChatPageView } from '@bot-platform/sdk-core';
import type { BotChatController } from './bot-chat-controller';

export interface BotChatViewProps<Events extends Record<string, unknown>> {
  controller: BotChatController<Events>;
  /** The user closed the chat on the page: hide this view. */
  onClose?: () => void;
  /** Passed to the WebView. */
  style?: unknown;
}

/** The hosted chat page in a WebView, linked to `controller` (its bridge, closeBot / reloadBot, url changes). */
export function BotChatView<Events extends Record<string, unknown>>({ controller, onClose, style }: BotChatViewProps<Events>): ReactElement {
  const ref = useRef<ChatPageView | null>(null);
  const [url, setUrl] = useState(controller.url);
  useEffect(() => controller.connect(() => ref.current, setUrl), [controller]);
  useEffect(() => (onClose ? controller.onClose(onClose) : undefined), [controller, onClose]);
  return createElement(WebView, { ref, style, ...controller.webViewProps(url) });
}
