import { Agent } from 'node:http';
import { finished } from 'node:stream/promises';
import { AppProcess, httpGet, startAppProcess } from './app-process.js';
import { useStack } from './e2e-stack.js';

const GATEWAY = 'dist/apps/gateway/src/main.js';

interface Outcome {
  sentAt: number;
  status?: number;
  error?: string;
}

/** One GET over `agent`, read to its end; the outcome is a status or the socket error's code, never a throw. */
async function get(url: string, agent: Agent): Promise<Outcome> {
  const sentAt = Date.now();
  try {
    const res = await httpGet(url, { agent });
    res.resume();
    await finished(res);
    return { sentAt, status: res.statusCode };
  } catch (err) {
    return { sentAt, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  }
}

/**
 * SIGTERM under load of keep-alive clients: the gateway stops taking connections, answers every
 * request it holds (closing each connection after its answer) and exits 0; no client sees a reset.
 */
describe('gateway shutdown: requests in flight at SIGTERM', () => {
  const stack = useStack({ gateway: false }, 120_000);
  let gateway: AppProcess;
  afterAll(() => gateway?.kill(), 30_000);

  it('answers every request sent before SIGTERM; later ones are refused, never reset', async () => {
    gateway = await startAppProcess(GATEWAY, stack.env);
    const clients = 48;
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    const url = `${gateway.url}/health`;
    // Every client holds a kept-alive connection before the load starts.
    await Promise.all(Array.from({ length: clients }, () => get(url, agent)));
    const outcomes: Outcome[] = [];
    let stopAt = Infinity;
    const client = async () => {
      while (Date.now() < stopAt) {
        const outcome = await get(url, agent);
        outcomes.push(outcome);
        if (outcome.error) return;
      }
    };
    const load = Promise.all(Array.from({ length: clients }, client));
    await new Promise((r) => setTimeout(r, 500));
    const killedAt = Date.now();
    gateway.child.kill('SIGTERM');
    stopAt = killedAt + 3_000;
    await load;
    agent.destroy();
    const exit = await gateway.exited;

    const before = outcomes.filter((o) => o.sentAt < killedAt);
    const after = outcomes.filter((o) => o.sentAt >= killedAt);
    const resets = outcomes.filter((o) => o.error && o.error !== 'ECONNREFUSED');
    expect(before.length).toBeGreaterThan(clients);
    expect(resets).toEqual([]);
    expect(before.filter((o) => o.status !== 200)).toEqual([]);
    expect(after.filter((o) => o.status !== undefined && o.status !== 200)).toEqual([]);
    // Nest's shutdown hooks end the process with the signal it received, once closed; a stuck close would exit 1.
    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(gateway.output()).not.toContain('shutdown did not finish');
  }, 120_000);
});
