import { CoreEnv, CryptoEnv, TriggerGuardEnv, WebhookUrlEnv } from '@platform/config';

/** The env classes the CLI reads (its webhook commands check URLs as the gateway does, its quota commands show the default quota); it validates these and no others. */
export const CLI_ENV = [CoreEnv, CryptoEnv, WebhookUrlEnv, TriggerGuardEnv];
