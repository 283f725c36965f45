import '@platform/common/v8-flags'; // first, before any other module runs (PLATFORM_V8_FLAGS)
import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runMain } from '@platform/common';
import { createBotRuntime } from './create-bot-runtime.js';
import { BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS } from './shutdown-timeout.js';

// Question patterns are written by bot builders and tested against users' answers on this event loop.
// The validator refuses the obvious catastrophic forms, not every one: with this flag V8 switches a
// pattern that backtracks excessively to its linear-time engine, so no answer can stall the runtime.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

runMain(() => createBotRuntime(), { shutdownTimeoutMs: BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS });
