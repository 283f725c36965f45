// cordova-plugin-bot-platform-chat: window.BotChat (plugin.xml clobbers it) in a Cordova app.
import type { AnyBotEvents, BotConfig } from '@bot-platform/sdk-core';
import { CordovaBotChat, type CordovaChatOptions } from './cordova-bot-chat';

export { CordovaBotChat, commandScript } from './cordova-bot-chat';
export type { CordovaChatOptions, InAppBrowserLike, OpenInAppBrowser } from './cordova-bot-chat';
export { ValidationError, SdkError, EventDecodeError, DeviceRegistry, handleNotification, PAYLOAD_MAX_BYTES } from '@bot-platform/sdk-core';

/** A chat for `config` (not opened yet: call `open()`). Throws ValidationError naming the field on a bad config. */
export function create<Events extends Record<string, unknown> = AnyBotEvents>(config: BotConfig, options: CordovaChatOptions): CordovaBotChat<Events> {
  return new CordovaBotChat<Events>(config, options);
}
