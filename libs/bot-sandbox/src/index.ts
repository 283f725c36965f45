export { QuickJsFunctionRunner } from './quickjs-function-runner.js';
export { ThreadedFunctionRunner } from './threads/threaded-function-runner.js';
export { SANDBOX_LIMITS, DEFAULT_RUNNER_OPTIONS } from './sandbox-limits.js';
export type { QuickJsRunnerOptions } from './sandbox-limits.js';
export { SDK_CORE_MODULE_NAME } from './sdk-core-module.js';
export { SDK_SNIPPET, measureWarmCalls } from './measure-warm-calls.js';
export type { WarmCallTiming } from './measure-warm-calls.js';
