import '@platform/common/v8-flags'; // first, before any other module runs (PLATFORM_V8_FLAGS)
import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createChannelWorker } from './create-channel-worker.js';
import { CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS } from './shutdown-timeout.js';

runMain(() => createChannelWorker(), { shutdownTimeoutMs: CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS });
