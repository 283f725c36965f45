/**
 * A request job whose handler answered with an error fails, and its failedReason carries that error
 * (what Nest's exception filters made of it: RpcException's error, or `{status, message}`) as JSON,
 * so the caller gets the same value Nest's own transports deliver.
 */
export function encodeFailure(error: unknown): string {
  return JSON.stringify({ error });
}

/** The error a caller sees for a failed request job (a reason this transport did not write becomes a plain message). */
export function decodeFailure(reason: string | undefined): unknown {
  try {
    const parsed = JSON.parse(reason ?? '') as { error?: unknown };
    if (parsed && typeof parsed === 'object' && 'error' in parsed) return parsed.error;
  } catch {
    /* not written by encodeFailure */
  }
  return { status: 'error', message: reason ?? 'The request failed' };
}
