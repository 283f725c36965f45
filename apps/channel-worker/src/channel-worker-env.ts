import { CallbackEnv, CatalogEnv, CoreEnv, CryptoEnv, DatabaseEnv, JobLockEnv, LifecycleStreamEnv, WebhookUrlEnv, WhatsAppEnv, WhatsAppRetryEnv, WorkerEnv } from '@platform/config';

/** The env classes the channel worker reads; it validates these and no others. */
export const CHANNEL_WORKER_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, CatalogEnv, WhatsAppEnv, WhatsAppRetryEnv, WorkerEnv, JobLockEnv, LifecycleStreamEnv, CallbackEnv, WebhookUrlEnv];
