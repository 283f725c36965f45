import type { FunctionRunRequest } from '@platform/contracts';
import { SDK_SNIPPET } from '../measure-warm-calls.js';
import { ThreadedFunctionRunner } from './threaded-function-runner.js';

const request = (code: string, extra: Partial<FunctionRunRequest> = {}): FunctionRunRequest => ({
  code,
  payload: null,
  variables: {},
  timeoutMs: 1000,
  memoryBytes: 16 * 1024 * 1024,
  ...extra,
});

/** The sandbox on real worker threads (the build's thread entry: the test command builds first). */
describe('ThreadedFunctionRunner', () => {
  let runner: ThreadedFunctionRunner;
  beforeAll(async () => {
    runner = await ThreadedFunctionRunner.create(2);
  }, 60_000);
  afterAll(() => runner?.close());

  it('starts the threads asked for, and runs code with payload, variables, events and logs', async () => {
    expect(runner.threads).toBe(2);
    const outcome = await runner.run(
      request('app.sendEvent({ code: "sendReactNativeEvent", data: { code: "shown", data: { n: variables.n } } }); app.log("hi"); return JSON.parse(payload).userName', {
        payload: '{"userName":"Ada"}',
        variables: { n: 1 },
      }),
    );
    expect(outcome).toMatchObject({ ok: true, value: 'Ada', events: [{ code: 'sendReactNativeEvent', data: { code: 'shown' } }], logs: ['hi'] });
    expect(await runner.run(request(SDK_SNIPPET, { payload: '{"JourneySlug":"welcome"}' }))).toMatchObject({ ok: true, value: { JourneySlug: 'welcome' } });
  });

  it('keeps the event loop free while a function runs: a 300 ms loop on a thread lets timers fire meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = ticks;
    const outcome = await runner.run(request('const end = Date.now() + 300; while (Date.now() < end) {} return "done"'));
    clearInterval(timer);
    expect(outcome).toMatchObject({ ok: true, value: 'done' });
    // On the loop itself (the inline runner) no timer could fire until the run returned.
    expect(ticks - started).toBeGreaterThan(0);
  });

  it('runs functions side by side, each with its own limits: an endless loop stops at its CPU limit while others answer', async () => {
    const [endless, ...quick] = await Promise.all([runner.run(request('for (;;) {}', { timeoutMs: 200 })), ...Array.from({ length: 20 }, (_, i) => runner.run(request(`return ${i} * 2`)))]);
    expect(endless).toMatchObject({ ok: false, failure: 'timeout' });
    expect(quick.map((o) => (o.ok ? o.value : o.failure))).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
  });

  it('answers a failure, never throws, once its threads are gone', async () => {
    const closed = await ThreadedFunctionRunner.create(1);
    await closed.close();
    expect(await closed.run(request('return 1'))).toMatchObject({ ok: false, failure: 'threw', message: expect.stringContaining('the sandbox thread stopped') });
  }, 60_000);
});
