import { inspect } from 'node:util';

/**
 * What went wrong, in words, for "local stack failed to start: …". Some libraries reject with an
 * Error whose message is empty, with a plain object or with nothing at all; those printed
 * "undefined". This names the cause whatever was thrown: the message, else the error's code or
 * name, with its causes (and an AggregateError's errors) after it.
 */
export function failureText(err: unknown, depth = 0): string {
  if (depth > 4) return '…';
  if (err === undefined || err === null) return 'an unknown error (nothing was thrown with it)';
  if (typeof err === 'string') return err.trim() || 'an unknown error (an empty message)';
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    const own = err.message.trim() || (code ? `${err.name} ${code}` : `${err.name} without a message`);
    const parts = [own];
    if (err instanceof AggregateError) parts.push(...err.errors.map((e) => failureText(e, depth + 1)));
    if (err.cause !== undefined) parts.push(`caused by: ${failureText(err.cause, depth + 1)}`);
    return parts.join('; ');
  }
  if (typeof err === 'object') {
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.trim();
  }
  return inspect(err, { depth: 2, breakLength: Infinity });
}
