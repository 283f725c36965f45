import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { DatabaseUnavailableError } from '@platform/database';
import type { PrismaService } from '@platform/database';
import type { DatabaseEnv } from '@platform/config';
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
  const liveness = new PostgresLiveness(db, { DATABASE_CONNECT_TIMEOUT_MS: 800 } as DatabaseEnv);
  liveness.onModuleInit();
  const probe = () => (liveness as unknown as { probe(): Promise<void> }).probe();
  return { pool, answers, liveness, probe, queries: () => queries };
}

/** A probe answer that fails after `ms` of the (faked) clock. */
const failsAfter = (ms: number) => () => {
  jest.setSystemTime(Date.now() + ms);
  return Promise.reject(new Error('no answer'));
};

describe('PostgresLiveness', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('is down at once when a pooled connection breaks, and up again after a probe that succeeds', async () => {
    const { pool, liveness, probe } = setup();
    expect(() => liveness.assertReachable()).not.toThrow();
    pool.emit('error', new Error('terminating connection due to administrator command'));
    expect(() => liveness.assertReachable()).toThrow(DatabaseUnavailableError);
    await probe();
    expect(() => liveness.assertReachable()).not.toThrow();
    liveness.onModuleDestroy();
  });

  it('is down at once when a probe is refused, and sends one probe at a time', async () => {
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

  it('stays up through slow probes on a loaded host and is down after three in a row', async () => {
    const { answers, liveness, probe } = setup();
    answers.push(failsAfter(800), failsAfter(1200)); // the pool's wait for a connection, then the probe's own timeout
    await probe();
    await probe();
    expect(() => liveness.assertReachable()).not.toThrow();
    await probe(); // answers in time: the slow ones no longer count
    answers.push(failsAfter(1000), failsAfter(1000), failsAfter(1000));
    await probe();
    await probe();
    expect(() => liveness.assertReachable()).not.toThrow();
    await probe();
    expect(() => liveness.assertReachable()).toThrow(DatabaseUnavailableError);
    liveness.onModuleDestroy();
  });
});
