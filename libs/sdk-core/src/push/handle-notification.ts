import type { BotConfig } from '../config/bot-config';
import { ValidationError } from '../errors';

/** Data of a push notification as the push provider delivers it (FCM data values are strings). */
export type NotificationData = Readonly<Record<string, unknown>>;

/** The app's usual config; `botId` may be missing because the notification supplies it. */
export type BaseBotConfig = Omit<BotConfig, 'botId'> & { botId?: string };

/**
 * What to open when the user taps a notification: the bot named by `data.botId` with version 2, the
 * chat auth token set, and `payload.JourneySlug = data.journeySlug` when that is a non-empty string
 * (merged into the base payload). Returns null when the notification has no botId (not the SDK's).
 */
export function handleNotification(data: NotificationData | null | undefined, baseConfig: BaseBotConfig): BotConfig | null {
  const botId = data?.botId;
  if (typeof botId !== 'string' || botId.trim() === '') return null;
  const token = baseConfig.ymAuthenticationToken;
  if (typeof token !== 'string' || token === '') {
    throw new ValidationError('ymAuthenticationToken', 'required', 'Opening a bot from a notification needs the chat auth token in the base config');
  }
  const payload: Record<string, unknown> = { ...baseConfig.payload };
  const journeySlug = data?.journeySlug;
  if (typeof journeySlug === 'string' && journeySlug !== '') payload.JourneySlug = journeySlug;
  return { ...baseConfig, botId, version: 2, ymAuthenticationToken: token, payload };
}
