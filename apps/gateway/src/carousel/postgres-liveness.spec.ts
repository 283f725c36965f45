import { EventEmitter } from 'node:events';
import { DatabaseUnavailableError } from '@platform/database';
import type { PrismaService } from '@platform/database';
import { PostgresLiveness } from './postgres-liveness.js';

function setup() {
  const pool = new EventEmitter();
  const answers: Array<() => Promise<unknown>> = [];
  let queries = 0;
  const db = {
    pool,
    query: () => {
      queries++;
      return (answers.shift() ?? (() => Promise.resolve({ rows: [] })))();
    },
  } as unknown as PrismaService;
  const liveness = new PostgresLiveness(db);
  liveness.onModuleInit();
  const probe = () => (liveness as unknown as { probe(): Promise<void> }).probe();
  return { pool, answers, liveness, probe, queries: () => queries };
}

describe('PostgresLiveness', () => {
  it('is down at once when a pooled connection breaks, and up again after a probe that succeeds', async () => {
    const { pool, liveness, probe } = setup();
    expect(() => liveness.assertReachable()).not.toThrow();
    pool.emit('error', new Error('terminating connection due to administrator command'));
    expect(() => liveness.assertReachable()).toThrow(DatabaseUnavailableError);
    await probe();
    expect(() => liveness.assertReachable()).not.toThrow();
    liveness.onModuleDestroy();
  });

  it('is down while probes fail, and sends one probe at a time', async () => {
    const { answers, liveness, probe, queries } = setup();
    let release!: () => void;
    answers.push(() => new Promise((_, reject) => (release = () => reject(new Error('connect ECONNREFUSED')))));
    const first = probe();
    await probe(); // still in flight: no second query
    expect(queries()).toBe(1);
    release();
    await first;
    expect(() => liveness.assertReachable()).toThrow(DatabaseUnavailableError);
    liveness.onModuleDestroy();
  });
});
