import type { BotConfig } from '../config/bot-config';
import { checkCloudHost } from '../config/sdk-options';
import { validateBotConfig, type ConfigCheckOptions } from '../config/validate-config';

export const WEB_VIEW_PATH = '/web/bot';

/**
 * The address the app's web view loads for the bot:
 * `https://<region or cloud host>/web/bot?botId=…&version=…&enableSpeech=…&payload=<JSON>`, then
 * `&statusBarColor=…&closeButtonColor=…` when set (checked as `#RRGGBB` / `#AARRGGBB` colours), plus
 * `#ymAuthenticationToken=…` when a token is set. The token goes in the fragment so that it is
 * never sent to servers or written to access logs; the web-view page reads it from `location.hash`.
 */
export function buildWebViewUrl(config: BotConfig, options: ConfigCheckOptions): string {
  const resolved = validateBotConfig(config, options);
  const origin = resolved.customBaseUrl ?? `https://${checkCloudHost(options.cloudHost)}`;
  const query = [param('botId', resolved.botId), param('version', String(resolved.version)), param('enableSpeech', String(resolved.enableSpeech)), param('payload', JSON.stringify(resolved.payload))];
  if (resolved.statusBarColor !== undefined) query.push(param('statusBarColor', resolved.statusBarColor));
  if (resolved.closeButtonColor !== undefined) query.push(param('closeButtonColor', resolved.closeButtonColor));
  const fragment = resolved.ymAuthenticationToken ? `#${param('ymAuthenticationToken', resolved.ymAuthenticationToken)}` : '';
  return `${origin}${WEB_VIEW_PATH}?${query.join('&')}${fragment}`;
}

// Built by hand: React Native's URLSearchParams is incomplete.
function param(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}`;
}
