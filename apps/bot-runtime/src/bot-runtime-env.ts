import { BotRuntimeEnv, BotRuntimeServerEnv, CallbackEnv, CoreEnv, CryptoEnv, DatabaseEnv, JobLockEnv, LifecycleStreamEnv, SdkEnv, WhatsAppRetryEnv } from '@platform/config';

/**
 * The env classes the bot runtime reads; it validates these and no others. SdkEnv: the app-event
 * backlog it appends web replies and app events to; WhatsAppRetryEnv: the conversation-reply queue it
 * queues WhatsApp replies on (its job options); CallbackEnv and LifecycleStreamEnv: a handoff node's
 * conversation.handoff event (the callback queue's job options, the stream's length).
 */
export const BOT_RUNTIME_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, SdkEnv, WhatsAppRetryEnv, JobLockEnv, BotRuntimeEnv, BotRuntimeServerEnv, CallbackEnv, LifecycleStreamEnv];
