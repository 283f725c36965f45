import { CatalogEnv, CoreEnv, CryptoEnv, DatabaseEnv, CallbackEnv, JobLockEnv, LifecycleStreamEnv, WebhookUrlEnv, WhatsAppEnv, WorkerEnv } from '@platform/config';

/** The env classes the channel worker reads; it validates these and no others. */
export const CHANNEL_WORKER_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, CatalogEnv, WhatsAppEnv, WorkerEnv, JobLockEnv, LifecycleStreamEnv, CallbackEnv, WebhookUrlEnv];
