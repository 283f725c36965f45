import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
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

/** A labelled input whose error names the field and is tied to it for screen readers. */
export function Field(props: { id: string; label: string; error?: string | null; hint?: string; children: (aria: Record<string, string | boolean | undefined>) => ComponentChildren }) {
  const describedBy = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : ''].filter(Boolean).join(' ') || undefined;
  // Hint and error sit outside the <label>: the field's name stays its label, they are its description.
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children({ id: props.id, 'aria-invalid': props.error ? 'true' : undefined, 'aria-describedby': describedBy })}
      {props.hint && <small id={`${props.id}-hint`}>{props.hint}</small>}
      {props.error && (
        <small id={`${props.id}-error`} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
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
    <nav aria-label={`${label} pages`} class="pager">
      <button type="button" class="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <button type="button" class="secondary" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * A table's box. Wide screens show the table as it is (scrolling sideways if it must); phones show each
 * row as a card whose cells are led by their column's name (styles.css), taken from the header row into
 * each cell's `data-label`. The table's roles are set on its elements too: some browsers (Safari) stop
 * presenting a table as one to screen readers once CSS changes its display.
 */
export function TableWrap({ children }: { children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const wrap = box.current!;
    labelCells(wrap);
    // Rows come and go with paging, filters and live updates.
    const rows = new MutationObserver(() => labelCells(wrap));
    rows.observe(wrap, { childList: true, subtree: true });
    return () => rows.disconnect();
  }, []);
  return (
    <div class="table-wrap" ref={box}>
      {children}
    </div>
  );
}

const ROLES: Record<string, string> = { TABLE: 'table', THEAD: 'rowgroup', TBODY: 'rowgroup', TR: 'row', TD: 'cell' };

function labelCells(wrap: HTMLElement): void {
  for (const table of wrap.querySelectorAll('table')) {
    // A header that is only there for screen readers (an actions column) gives its cells no visible label.
    const labels = [...table.querySelectorAll('thead th')].map((th) => (th.querySelector('.visually-hidden') ? '' : (th.textContent?.trim() ?? '')));
    for (const el of table.querySelectorAll<HTMLElement>('thead, tbody, tr, th, td')) {
      el.setAttribute('role', ROLES[el.tagName] ?? (el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader'));
    }
    table.setAttribute('role', 'table');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        if (cell.tagName === 'TD' && labels[i]) cell.setAttribute('data-label', labels[i]);
      });
    }
  }
}
