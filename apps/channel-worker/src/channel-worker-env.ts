import { CatalogEnv, CoreEnv, CryptoEnv, DatabaseEnv, JobLockEnv, PostbackEnv, WebhookUrlEnv, WhatsAppEnv, WhatsAppRetryEnv, WorkerEnv } from '@platform/config';

/** The env classes the channel worker reads; it validates these and no others. */
export const CHANNEL_WORKER_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, CatalogEnv, WhatsAppEnv, WhatsAppRetryEnv, WorkerEnv, JobLockEnv, PostbackEnv, WebhookUrlEnv];
