// @bot-platform/sdk-core: runs unchanged in React Native, browsers and Node (no Node-only APIs).

export { SdkError, ValidationError, InvalidPayloadError, HttpError, ProtocolError, EventDecodeError, SessionError } from './errors';
export type { ValidationRule, EventDecodeReason, SessionErrorReason } from './errors';

export type { JsonValue, JsonObject, JsonPrimitive } from './json/json-types';

export type { BotConfig, ResolvedBotConfig } from './config/bot-config';
export { DEFAULT_BOT_VERSION } from './config/bot-config';
export type { SdkOptions } from './config/sdk-options';
export { validateBotConfig, findConfigErrors } from './config/validate-config';
export type { ConfigCheckOptions } from './config/validate-config';
export { AUTH_TOKEN_MAX_LENGTH, PAYLOAD_MAX_BYTES, REGIONS } from './config/rules';

export { buildWebViewUrl, WEB_VIEW_PATH } from './webview/build-web-view-url';
export { parseChatPageMessage, parsePageMessage, chatPageCommand, CHAT_PAGE_SOURCE } from './webview/chat-page-bridge';
export type { ChatPageMessage, PageMessage, ChatPageCommand, ChatPageView, ChatPageHandlers, ChatPageLink } from './webview/chat-page-bridge';
export { ChatHost } from './webview/chat-host';
export type { ChatHostOptions } from './webview/chat-host';

export { BotSession, createBotSession } from './session/bot-session';
export type { BotSessionOptions, SessionState } from './session/bot-session';
export type { BackoffOptions } from './session/backoff';
export type { LivenessOptions } from './session/liveness';
export { STREAM_CLOSE, DEVICE_PLATFORMS } from './session/protocol';
export type {
  StartSessionRequest,
  StartSessionResponse,
  AppEventRequest,
  RegisterDeviceRequest,
  DevicePlatform,
  WireBotEvent,
  AuthFrame,
  AckFrame,
  ClientFrame,
  ReadyFrame,
  HeartbeatFrame,
  EventFrame,
  ServerFrame,
} from './session/protocol';

export type { BotEvent, BotEventMeta, AnyBotEvents } from './events/bot-event';
export { decodeBotEvent } from './events/decode-event';
export { decodeServerFrame } from './events/decode-frame';
export type { DecodedFrame } from './events/decode-frame';

export { handleNotification } from './push/handle-notification';
export type { NotificationData, BaseBotConfig } from './push/handle-notification';
export { DeviceRegistry } from './push/device-registry';
export type { DeviceRegistryOptions, DeviceRegistration } from './push/device-registry';

export { speechCapabilities, SPEECH_UNSUPPORTED_REASON } from './speech/speech-capabilities';
export type { SpeechCapabilities } from './speech/speech-capabilities';

export { parseBotPayload } from './bot-helpers/parse-bot-payload';

export type { FetchLike, FetchInit, FetchResponseLike } from './transport/fetch-like';
export type { WebSocketLike, WebSocketConstructorLike } from './transport/websocket-like';
