import { CoreEnv, CryptoEnv, PostbackEnv, WebhookUrlEnv } from '@platform/config';

/** The env classes the CLI reads (its webhook and postback commands check URLs as the gateway does); it validates these and no others. */
export const CLI_ENV = [CoreEnv, CryptoEnv, WebhookUrlEnv, PostbackEnv];
