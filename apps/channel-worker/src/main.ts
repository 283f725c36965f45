import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createChannelWorker } from './create-channel-worker.js';

runMain(() => createChannelWorker(), { shutdownTimeoutMs: 10_000 });
