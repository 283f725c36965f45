import { BadRequestException } from '@nestjs/common';

const PAGE_MAX = 200;
const PAGE_DEFAULT = 50;
const ID_MAX = 2n ** 63n - 1n; // a Postgres bigint

/** A page cursor from the query (the `next` of the previous page); null when absent. */
export function parseCursor(cursor: unknown): bigint | null {
  if (cursor === undefined) return null;
  if (typeof cursor !== 'string' || !/^\d{1,19}$/.test(cursor) || BigInt(cursor) > ID_MAX) {
    throw new BadRequestException('cursor must be the next value of a previous page');
  }
  return BigInt(cursor);
}

export function parseLimit(limit: unknown): number {
  if (limit === undefined) return PAGE_DEFAULT;
  const n = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
  if (!(n >= 1 && n <= PAGE_MAX)) throw new BadRequestException(`limit must be an integer from 1 to ${PAGE_MAX}`);
  return n;
}

/** A version number from the path. */
export function parseVersion(version: string): number {
  const n = /^\d{1,9}$/.test(version) ? Number(version) : NaN;
  if (!(n >= 1)) throw new BadRequestException('version must be a positive integer');
  return n;
}
