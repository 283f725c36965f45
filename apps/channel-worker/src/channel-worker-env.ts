import { CatalogEnv, CoreEnv, CryptoEnv, JobLockEnv, PostbackEnv, WebhookUrlEnv, WhatsAppEnv, WorkerEnv } from '@platform/config';

/** The env classes the channel worker reads; it validates these and no others. */
export const CHANNEL_WORKER_ENV = [CoreEnv, CryptoEnv, CatalogEnv, WhatsAppEnv, WorkerEnv, JobLockEnv, PostbackEnv, WebhookUrlEnv];
