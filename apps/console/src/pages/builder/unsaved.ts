// Edits the builder has not saved yet are not lost by leaving the page: the browser asks before a reload,
// a closed tab or a console link, and a copy kept in this browser is offered back when the builder opens
// again (after the Back button, a crash, or a leave the person confirmed).
import { useEffect } from 'preact/hooks';
import type { Definition } from './definition.js';

export const LEAVE_QUESTION = 'The bot builder has changes that are not saved. Leave anyway?';

/** While `unsaved`, asks before the page is left: reload or close (the browser's own dialog) and the console's hash links. */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const beforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ''; // older Chromium shows its dialog only with returnValue set
    };
    // In the capture phase, before the link changes the hash: once it has, the builder is gone with the edits.
    const click = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]');
      const target = link?.getAttribute('href');
      if (!target?.startsWith('#') || target === location.hash) return;
      if (!confirm(LEAVE_QUESTION)) e.preventDefault();
    };
    addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [unsaved]);
}

/** The unsaved definition kept in this browser, and the saved draft it was made on (its updatedAt, or null). */
export interface LocalCopy {
  definition: Definition;
  savedAt: string;
  basedOn: string | null;
}

const PREFIX = 'bp-console-builder-unsaved:';
const keyOf = (botId: string) => PREFIX + botId;

export function readLocalCopy(botId: string): LocalCopy | null {
  try {
    const text = localStorage.getItem(keyOf(botId));
    if (!text) return null;
    const copy = JSON.parse(text) as LocalCopy;
    return copy && typeof copy === 'object' && Array.isArray(copy.definition?.journeys) && typeof copy.savedAt === 'string' ? copy : null;
  } catch {
    return null; // storage blocked or a copy this version cannot read: nothing to offer
  }
}

export function writeLocalCopy(botId: string, definition: Definition, basedOn: string | null): void {
  try {
    localStorage.setItem(keyOf(botId), JSON.stringify({ definition, savedAt: new Date().toISOString(), basedOn } satisfies LocalCopy));
  } catch {
    // Storage full or blocked: the leave guard still asks before the page is left.
  }
}

export function dropLocalCopy(botId: string): void {
  try {
    localStorage.removeItem(keyOf(botId));
  } catch {
    /* nothing kept */
  }
}

export function hasLocalCopies(): boolean {
  try {
    return Object.keys(localStorage).some((key) => key.startsWith(PREFIX));
  } catch {
    return false;
  }
}

/** At sign-out: the next person at this browser gets no one else's unsaved work. */
export function dropAllLocalCopies(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    /* nothing kept */
  }
}
