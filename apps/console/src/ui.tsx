import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { IconNode } from 'lucide';
import { ApiError, Role } from './api.js';
import { humanError } from './human-error.js';
import { Icon } from './icon.js';
import { CircleAlert, Clock, WifiOff } from './icons.js';

/**
 * A call's state; `slow` turns true when it has taken more than 300 ms (spinners appear then, not at once).
 * `loadedAt`: when `data` was read; `refreshFailed`: the last reload was a quiet one (a poll's) and failed,
 * so `data` is what was read at `loadedAt` (a page may say so: RefreshFailed in pages/inbox/refresh.tsx).
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean; loadedAt?: Date; refreshFailed?: boolean }>({ loading: true });
  const seq = useRef(0);
  const reload = useCallback(
    async (quiet = false) => {
      const n = ++seq.current;
      if (!quiet) setState((s) => ({ ...s, loading: true }));
      try {
        const data = await load();
        if (n === seq.current) setState({ data, loading: false, loadedAt: new Date() });
      } catch (err) {
        if (n === seq.current) setState((s) => ({ ...s, error: asApiError(err), loading: false, refreshFailed: quiet && s.data !== undefined }));
      }
    },
    deps, // the caller's, as with useEffect's
  );
  useEffect(() => {
    setState({ loading: true });
    void reload();
  }, [reload]);
  return { ...state, reload };
}

export function asApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : new ApiError(0, err instanceof Error ? err.message : String(err));
}

/** Runs an action (a button's), exposing busy and error for the form around it. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (err) {
      setError(asApiError(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
export type Action = ReturnType<typeof useAction>;

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <p aria-busy="true" role="status">
      {label}
    </p>
  );
}

/**
 * An API answer that went wrong, in words for people (human-error.ts): what happened, the server's reason
 * as a sentence, and what to do; a lost session offers to sign in again. `signingIn`: the sign-in form's.
 */
export function ErrorNotice({ error, signingIn }: { error: ApiError | null | undefined; signingIn?: boolean }) {
  if (!error) return null;
  if (error.status === 403) return <NotAllowed message={error.message} />;
  const h = humanError(error, signingIn);
  return (
    <div class="notice error" role="alert" data-status={error.status || undefined}>
      <Icon node={error.status === 0 ? WifiOff : error.status === 401 ? Clock : CircleAlert} />
      <div>
        <p>
          <strong>{h.title}</strong>
        </p>
        {h.detail && <p class="detail">{h.detail}</p>}
        {h.signIn && (
          <p class="detail">
            {/* A reload finds no session and shows the sign-in form; signing in comes back to this page (its hash route). */}
            <button type="button" class="small" onClick={() => location.reload()}>
              Sign in again
            </button>
          </p>
        )}
      </div>
    </div>
  );
}

/** A list with nothing in it yet: what would be here, and the next step to fill it (a link or a button). */
export function EmptyState({ icon, title, children, next, testId }: { icon: IconNode; title: string; children?: ComponentChildren; next?: ComponentChildren; testId?: string }) {
  return (
    <div class="empty-state" data-testid={testId ?? 'empty-state'}>
      <Icon node={icon} />
      <h3>{title}</h3>
      {children && <p>{children}</p>}
      {next && <div class="next">{next}</div>}
    </div>
  );
}

export function NotAllowed({ needed, role, message }: { needed?: Role; role?: Role; message?: string }) {
  return (
    <div class="notice warning" role="alert" data-testid="not-allowed">
      <strong>Not allowed. </strong>
      {message ?? `This page needs the ${needed} role on this bot; your role is ${role}.`} Ask an admin of the bot to change your role.
    </div>
  );
}

export function Success({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice success" role="status">
      {children}
    </div>
  );
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  // timeStyle 'long' names the time zone ("10:04:05 GMT+1"): times are read by people in other zones too.
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });
}

/**
 * The browser's time zone as `when` names it ("UTC", "GMT+1", "PST"): what a page says beside a time it
 * asks for (a datetime-local field is read in this zone).
 */
export function zoneName(at = new Date()): string {
  return new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? "this browser's time zone";
}

/** Client-side pages of a list already loaded (long lists never render all at once). */
export function usePage<T>(items: T[], size = 10) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(page, pages - 1);
  return { rows: items.slice(current * size, current * size + size), page: current, pages, setPage };
}

export function Pager({ page, pages, setPage, label }: { page: number; pages: number; setPage: (n: number) => void; label: string }) {
  if (pages <= 1) return null;
  return (
    <PagerNav label={label} back={page > 0 ? () => setPage(page - 1) : undefined} forward={page < pages - 1 ? () => setPage(page + 1) : undefined}>
      <span>
        Page {page + 1} of {pages}
      </span>
    </PagerNav>
  );
}

/** The buttons to the pages before and after this one (lists read page by page from the server too); a missing move is disabled. */
export function PagerNav(props: { label: string; back?: () => void; forward?: () => void; backText?: string; forwardText?: string; children?: ComponentChildren }) {
  return (
    <nav aria-label={`${props.label} pages`} class="pager">
      <button type="button" class="secondary" disabled={!props.back} onClick={props.back}>
        {props.backText ?? 'Previous'}
      </button>
      {props.children}
      <button type="button" class="secondary" disabled={!props.forward} onClick={props.forward}>
        {props.forwardText ?? 'Next'}
      </button>
    </nav>
  );
}
