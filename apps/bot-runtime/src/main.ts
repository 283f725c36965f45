import 'reflect-metadata';
import { runMain } from '@platform/common';
import { createBotRuntime } from './create-bot-runtime.js';
import { BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS } from './shutdown-timeout.js';

runMain(() => createBotRuntime(), { shutdownTimeoutMs: BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS });
