import { useEffect } from 'preact/hooks';
import { ApiError } from '../../api.js';

/** The inbox reads again this often while open: conversations change on the user's side too (polling, not the status stream). */
export const INBOX_POLL_MS = 3000;

/** Reads again every INBOX_POLL_MS while the tab is visible. */
export function usePoll(reload: (quiet: boolean) => unknown) {
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(true), INBOX_POLL_MS);
    return () => clearInterval(timer);
  }, [reload]);
}

/** Failures a later poll may mend (no network, the server's own failure, too many requests): the page keeps what it has and says so. */
export function transient(error: ApiError | undefined): boolean {
  return !!error && (error.status === 0 || error.status === 429 || error.status >= 500);
}

/** The error for the page's plain notice: none when it is a poll's failure that RefreshFailed says instead. */
export function pollError(load: { error?: ApiError; refreshFailed?: boolean }): ApiError | undefined {
  return load.refreshFailed && transient(load.error) ? undefined : load.error;
}

/**
 * While the poll's reloads fail for a reason a later one may mend, one line says so and since when the page
 * shows what it shows; gone once a reload succeeds. The status region is always there, so that its text is
 * announced when it comes.
 */
export function RefreshFailed({ load }: { load: { error?: ApiError; loadedAt?: Date; refreshFailed?: boolean } }) {
  const error = load.refreshFailed && transient(load.error) ? load.error! : null;
  const why = error?.status === 0 ? 'the console cannot reach the server' : error?.status === 429 ? 'the server is busy with too many requests' : 'the server answered with an error';
  // timeStyle 'long' names the time zone, as every time in the console does (`when`).
  return (
    <div role="status" data-testid="refresh-status">
      {error && (
        <p class="notice warning">
          Could not refresh ({why}); showing what was loaded at {load.loadedAt?.toLocaleTimeString(undefined, { timeStyle: 'long' })}. Retrying every few seconds.
        </p>
      )}
    </div>
  );
}
