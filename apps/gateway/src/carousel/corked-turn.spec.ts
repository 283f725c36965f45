import { Cluster, type Redis } from 'ioredis';
import { CorkedTurn } from './corked-turn.js';

const turnOver = () => new Promise((r) => setImmediate(r));

describe('CorkedTurn', () => {
  it("runs a turn's flushes inside one cork, uncorking once the commands they start a few awaits later are written", async () => {
    const events: string[] = [];
    const turn = new CorkedTurn({ stream: { cork: () => events.push('cork'), uncork: () => events.push('uncork') } } as unknown as Redis);
    turn.schedule(() => events.push('quota script'));
    turn.schedule(
      () =>
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => events.push('job add')),
    );
    expect(events).toEqual([]);
    await turnOver();
    expect(events).toEqual(['cork', 'quota script', 'job add', 'uncork']);

    turn.schedule(() => events.push('next turn'));
    await turnOver();
    expect(events.slice(4)).toEqual(['cork', 'next turn', 'uncork']);
  });

  it('runs a flush given to now at once, in a cork of its own that ends once the commands it starts are written', async () => {
    const events: string[] = [];
    const turn = new CorkedTurn({ stream: { cork: () => events.push('cork'), uncork: () => events.push('uncork') } } as unknown as Redis);
    turn.now(
      () =>
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => events.push('job add')),
    );
    expect(events).toEqual(['cork']);
    await new Promise((r) => process.nextTick(r));
    await Promise.resolve();
    expect(events).toEqual(['cork', 'job add', 'uncork']);
  });

  it("on a Cluster client corks each master's connection for the turn", async () => {
    const events: string[] = [];
    const node = (name: string) => ({ stream: { cork: () => events.push(`cork ${name}`), uncork: () => events.push(`uncork ${name}`) } });
    const cluster = Object.assign(Object.create(Cluster.prototype) as Cluster, {
      nodes: (role: string) => (role === 'master' ? [node('a'), node('b'), { stream: undefined }] : []),
    });
    const turn = new CorkedTurn(cluster);
    turn.schedule(() => events.push('job add'));
    await turnOver();
    expect(events).toEqual(['cork a', 'cork b', 'job add', 'uncork a', 'uncork b']);
  });
});
