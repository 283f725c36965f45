import type { FunctionRunOutcome, FunctionRunRequest } from '@platform/contracts';
import { QuickJsFunctionRunner } from '../quickjs-function-runner.js';

/**
 * A sandbox thread's entry (piscina loads this file in each worker thread): one QuickJS runner per
 * thread, loaded once, running one function at a time.
 */
const runner = QuickJsFunctionRunner.create();

export default async function runFunction(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
  return (await runner).run(request);
}
