/** Whether a Prisma call failed on a unique index (P2002): a row with that key exists, often one a concurrent call just wrote. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'P2002';
}
