import { CallbackEnv, CoreEnv, CryptoEnv, DatabaseEnv, PushEnv, TriggerGuardEnv, WebhookUrlEnv, WhatsAppEnv } from '@platform/config';

/** The env classes the CLI reads (its webhook and postback commands check URLs as the gateway does; template sync calls the Cloud API; its quota commands show the default quotas); it validates these and no others. */
export const CLI_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, WebhookUrlEnv, WhatsAppEnv, CallbackEnv, TriggerGuardEnv, PushEnv];
