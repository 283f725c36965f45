import type { BotConfig } from '../config/bot-config';
import { checkCloudHost } from '../config/sdk-options';
import { validateBotConfig, type ConfigCheckOptions } from '../config/validate-config';

export const WEB_VIEW_PATH = '/web/bot';

/**
 * The address the app's web view loads for the bot:
 * `https://<region or cloud host>/web/bot?botId=…&version=…&enableSpeech=…`, then
 * `&statusBarColor=…&closeButtonColor=…` when set (checked as `#RRGGBB` / `#AARRGGBB` colours), and
 * the fragment `#ymAuthenticationToken=…&payload=<JSON>` (the token when set). The browser never sends
 * the fragment: the token stays out of servers' access logs, and a payload as large as the SDK allows
 * (64 KB) cannot make the request too large for the server (431). The page reads both from
 * `location.hash` and posts the payload when it starts the session.
 */
export function buildWebViewUrl(config: BotConfig, options: ConfigCheckOptions): string {
  const resolved = validateBotConfig(config, options);
  const origin = resolved.customBaseUrl ?? `https://${checkCloudHost(options.cloudHost)}`;
  const query = [param('botId', resolved.botId), param('version', String(resolved.version)), param('enableSpeech', String(resolved.enableSpeech))];
  if (resolved.statusBarColor !== undefined) query.push(param('statusBarColor', resolved.statusBarColor));
  if (resolved.closeButtonColor !== undefined) query.push(param('closeButtonColor', resolved.closeButtonColor));
  const fragment = [...(resolved.ymAuthenticationToken ? [param('ymAuthenticationToken', resolved.ymAuthenticationToken)] : []), param('payload', JSON.stringify(resolved.payload))];
  return `${origin}${WEB_VIEW_PATH}?${query.join('&')}#${fragment.join('&')}`;
}

// Built by hand: React Native's URLSearchParams is incomplete.
function param(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}`;
}
