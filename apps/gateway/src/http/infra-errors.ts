/** Recognises outages of Postgres or Redis and says which, for a clear 5xx body. */
export function describeInfraError(err: unknown): string | undefined {
  const text = `${(err as Error)?.name ?? ''} ${(err as Error)?.message ?? ''} ${(err as { code?: string })?.code ?? ''}`;
  if (err instanceof QueueUnavailableError) return err.message;
  if (/Prisma|DriverAdapter|ECONNREFUSED.*5432|Can't reach database|database|Connection terminated|timeout exceeded when trying to connect/i.test(text)) {
    return 'The database is unavailable; nothing was done. Retry later.';
  }
  if (/Redis|Stream isn't writeable|enableOfflineQueue|Connection is closed/i.test(text)) {
    return 'The message queue is unavailable; nothing was queued. Retry later.';
  }
  return undefined;
}

/** Thrown when a job could not be made durable in Redis. */
export class QueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The message queue is unavailable; nothing was queued. Retry later.', { cause });
    this.name = 'QueueUnavailableError';
  }
}
