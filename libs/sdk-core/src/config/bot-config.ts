import type { JsonObject } from '../json/json-types';

/** What the app passes to open a bot. Checked at run time by `validateBotConfig`. */
export interface BotConfig {
  /** Id of the bot to open. */
  botId: string;
  /** Chat auth token: at most 40 characters of A-Z a-z 0-9 _ -. Needed by `BotSession`. */
  ymAuthenticationToken?: string;
  /** Sent to the bot, which receives it as a JSON string. JSON-compatible plain object. */
  payload?: Readonly<Record<string, unknown>>;
  /** Bot version; 2 for v2 bots (the default). */
  version?: number;
  /** Regional cloud host, `https://r1.<cloudHost>` to `https://r5.<cloudHost>`. */
  customBaseUrl?: string;
  /** Speech-to-text in the web view (default false). */
  enableSpeech?: boolean;
  /** `#RRGGBB` or `#AARRGGBB`. */
  closeButtonColor?: string;
  /** `#RRGGBB` or `#AARRGGBB`. */
  statusBarColor?: string;
  /** Push-provider device token; must not be blank when given. */
  deviceToken?: string;
}

/** A config that passed validation, with defaults applied. */
export interface ResolvedBotConfig {
  botId: string;
  ymAuthenticationToken?: string;
  payload: JsonObject;
  version: number;
  /** Without trailing slash, lower case. */
  customBaseUrl?: string;
  enableSpeech: boolean;
  closeButtonColor?: string;
  statusBarColor?: string;
  deviceToken?: string;
}

export const DEFAULT_BOT_VERSION = 2;
