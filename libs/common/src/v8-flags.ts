import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags every app sets on itself, by importing this module first in its main.ts: NODE_OPTIONS
 * refuses them, and this way a process started any way (Docker, Kubernetes, `npm run up`, a test) gets
 * them before any other module has run.
 *
 * Allocation-site pretenuring off. V8 allocates straight into the old generation the objects of an
 * allocation site whose objects once mostly survived a young-generation collection, and keeps to that
 * decision. In about one gateway run in four the old generation then filled with request-scoped objects
 * (about 5 KB a trigger, 220-250 MB freed by each full collection) and the CPU per trigger rose by half
 * for the whole run. With the flag set first, none of 17 runs did so (BENCHMARKS.md, carousel trigger).
 * It has to be set before the modules load: set in runMain, once they had, it made no difference.
 */
export const PLATFORM_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

for (const flag of PLATFORM_V8_FLAGS) setFlagsFromString(flag);
