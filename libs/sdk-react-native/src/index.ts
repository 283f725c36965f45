// @bot-platform/sdk-react-native: the hosted chat page in react-native-webview, driven by BotChatController.
export { BotChatController, createBotChat } from './bot-chat-controller';
export type { ChatWebViewProps, RemoteMessageLike, WebViewMessageEvent } from './bot-chat-controller';
export { BotChatView } from './bot-chat-view';
export type { BotChatViewProps } from './bot-chat-view';
export { ValidationError, SdkError, EventDecodeError, DeviceRegistry, handleNotification } from '@bot-platform/sdk-core';
export type { BotConfig, BotEvent, BotEventMeta, ChatHostOptions } from '@bot-platform/sdk-core';
