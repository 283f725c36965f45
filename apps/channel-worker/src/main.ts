import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createChannelWorker } from './create-channel-worker.js';
import { CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS } from './shutdown-timeout.js';

runMain(() => createChannelWorker(), { shutdownTimeoutMs: CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS });
