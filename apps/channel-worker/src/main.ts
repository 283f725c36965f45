import 'reflect-metadata';
import { runMain } from '@platform/config';
import { createChannelWorker } from './create-channel-worker.js';

runMain(() => createChannelWorker(), { shutdownTimeoutMs: 10_000 });
