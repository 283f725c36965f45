import { BotRuntimeEnv, BotRuntimeServerEnv, CoreEnv, CryptoEnv, DatabaseEnv, JobLockEnv, SdkEnv, WhatsAppRetryEnv } from '@platform/config';

/**
 * The env classes the bot runtime reads; it validates these and no others. SdkEnv: the app-event
 * backlog it appends web replies and app events to; WhatsAppRetryEnv: the conversation-reply queue it
 * queues WhatsApp replies on (its job options).
 */
export const BOT_RUNTIME_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, SdkEnv, WhatsAppRetryEnv, JobLockEnv, BotRuntimeEnv, BotRuntimeServerEnv];
