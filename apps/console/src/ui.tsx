import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, Role } from './api.js';

/** A call's state; `slow` turns true when it has taken more than 300 ms (spinners appear then, not at once). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const reload = useCallback(
    async (quiet = false) => {
      const n = ++seq.current;
      if (!quiet) setState((s) => ({ ...s, loading: true }));
      try {
        const data = await load();
        if (n === seq.current) setState({ data, loading: false });
      } catch (err) {
        if (n === seq.current) setState((s) => ({ ...s, error: asApiError(err), loading: false }));
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

/** An API answer that went wrong, with the server's own message. */
export function ErrorNotice({ error }: { error: ApiError | null | undefined }) {
  if (!error) return null;
  if (error.status === 403) return <NotAllowed message={error.message} />;
  return (
    <div class="notice error" role="alert">
      <strong>{error.status ? `Error ${error.status}: ` : 'Error: '}</strong>
      {error.message}
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
