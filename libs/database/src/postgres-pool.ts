import pg from 'pg';
import { DatabaseUnavailableError } from './database-unavailable.error.js';

/**
 * SQLSTATEs with which Postgres answers only to say it cannot serve the connection: class 08
 * (connection exception), 57P01-57P03 (shutting down, crashed, starting up) and 53300 (too many
 * connections).
 */
const CANNOT_SERVE = new Set(['08000', '08001', '08003', '08004', '08006', '08007', '08P01', '57P01', '57P02', '57P03', '53300']);

/**
 * What a failed statement means. pg's DatabaseError is Postgres' own answer (a constraint, a syntax
 * error, ...): it passes through unless its code says the server cannot serve us. A TypeError or
 * RangeError is a bug in the statement's arguments. Anything else (a socket error, the connection
 * ended, no answer within query_timeout) means Postgres could not be asked.
 */
export function toDatabaseOutage(err: unknown): unknown {
  if (err instanceof DatabaseUnavailableError || err instanceof TypeError || err instanceof RangeError) return err;
  if (err instanceof pg.DatabaseError && !CANNOT_SERVE.has(err.code ?? '')) return err;
  return new DatabaseUnavailableError(err);
}

type Callback = (err: unknown, result?: unknown) => void;

export interface PostgresPoolConfig extends pg.PoolConfig {
  /**
   * false: statements given a name run unnamed (parsed on every run). A pooler in transaction mode
   * hands each transaction any server connection, where pg's named statement, prepared once per client
   * connection, does not exist.
   */
  preparedStatements?: boolean;
}

/**
 * node-postgres' client, whose statements fail with DatabaseUnavailableError when Postgres could not
 * be asked, and which drops statement names when its pool says so.
 */
class OutageAwareClient extends pg.Client {
  private readonly unnamed: boolean;

  constructor(config?: PostgresPoolConfig) {
    super(config);
    this.unnamed = config?.preparedStatements === false;
  }

  // Every form of pg's query(): config or text, optional values, then a callback or a promise.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's Pool declares it so; an override must match
  override query(config: unknown, values?: unknown, callback?: unknown): any {
    const base = (...args: unknown[]) => Reflect.apply(pg.Client.prototype.query, this, args) as unknown;
    const wrap =
      (cb: Callback): Callback =>
      (err, result) =>
        cb(err ? toDatabaseOutage(err) : err, result);
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === 'function';
    if (submittable) return base(config, values, callback);
    if (this.unnamed && typeof (config as { name?: unknown } | null)?.name === 'string') config = { ...(config as object), name: undefined };
    if (typeof values === 'function') return base(config, wrap(values as Callback));
    if (typeof callback === 'function') return base(config, values, wrap(callback as Callback));
    const ownCallback = (config as { callback?: unknown } | null)?.callback;
    if (typeof ownCallback === 'function') return base({ ...(config as object), callback: wrap(ownCallback as Callback) }, values);
    return (base(config, values) as Promise<unknown>).catch((err: unknown) => {
      throw toDatabaseOutage(err);
    });
  }
}

/**
 * The pg pool handed to Prisma's driver adapter and used for raw statements. Failing to get a
 * connection (refused, timed out, pool ended, login refused) rejects with DatabaseUnavailableError,
 * and so does a statement Postgres could not answer; Prisma's adapter passes such errors on as they are.
 */
export class PostgresPool extends pg.Pool {
  constructor(config: PostgresPoolConfig) {
    super({ ...config, Client: OutageAwareClient });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's Pool declares it so; an override must match
  override connect(callback?: unknown): any {
    const asOutage = (err: unknown) => (err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(err));
    if (typeof callback === 'function') {
      return super.connect(((err: unknown, client: unknown, done: unknown) => (callback as (...a: unknown[]) => void)(err ? asOutage(err) : err, client, done)) as never);
    }
    return super.connect().catch((err: unknown) => {
      throw asOutage(err);
    });
  }
}
