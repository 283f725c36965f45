import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Action, Spinner } from './ui.js';

/**
 * A list as a table, with the states around it: the spinner while the first read is under way, nothing when
 * there is no answer to show (its error is the page's), the `empty` text instead of a table with no rows.
 */
export function DataTable<T>(props: {
  loading: boolean;
  spinner: string;
  rows: T[] | undefined;
  /** Without it, an empty list still shows the table's header. */
  empty?: ComponentChildren;
  caption: string;
  columns: string[];
  /** A last column of buttons, named for screen readers only. */
  actions?: boolean;
  /** The table's aria-busy, on lists read again while shown. */
  busy?: boolean;
  testId?: string;
  row: (item: T) => ComponentChildren;
  /** Below the table: its pager. */
  children?: ComponentChildren;
}) {
  if (props.loading) return <Spinner label={props.spinner} />;
  if (!props.rows) return null;
  if (props.rows.length === 0 && props.empty) return <>{props.empty}</>;
  return (
    <>
      <TableWrap>
        <table class="striped" aria-busy={props.busy} data-testid={props.testId}>
          <caption class="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((name) => (
                <th scope="col">{name}</th>
              ))}
              {props.actions && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>{props.rows.map((item) => props.row(item))}</tbody>
        </table>
      </TableWrap>
      {props.children}
    </>
  );
}

/** A row's button for a call that cannot be undone: the browser asks first, `onDone` follows a call that answered. */
export function ConfirmButton(props: { action: Action; label: string; question: string; call: () => Promise<unknown>; onDone: () => void; children: ComponentChildren }) {
  const click = async () => {
    if (!confirm(props.question)) return;
    if (await props.action.run(props.call)) props.onDone();
  };
  return (
    <button type="button" class="secondary outline small" aria-label={props.label} disabled={props.action.busy} onClick={click}>
      {props.children}
    </button>
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
