/**
 * Postgres could not be asked: no connection could be had from the pool, the connection was lost, or
 * no answer came in time. Raised where our pg pool and its clients fail (PostgresPool), so Prisma
 * and raw statements alike reject with it; an error answer of Postgres itself is not one.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}
