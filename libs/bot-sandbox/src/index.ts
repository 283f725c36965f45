// TEMP stub of the sandbox's runner until hb-sandbox is merged; dropped at merge.
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';

export class QuickJsFunctionRunner implements FunctionRunner {
  run(_request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    return Promise.resolve({ ok: false, failure: 'threw', message: 'TEMP stub: the sandbox is not merged yet', events: [], logs: [], cpuMs: 0 });
  }
}
