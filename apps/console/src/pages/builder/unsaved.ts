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
/** A copy belongs to the member who made it: someone else signing in at this browser is not offered it. */
const keyOf = (userId: string, botId: string) => `${PREFIX}${userId}:${botId}`;
/** Copies older than this are dropped (a member who never came back to this browser). */
const KEPT_FOR_MS = 30 * 24 * 3600_000;

function parse(text: string | null): LocalCopy | null {
  if (!text) return null;
  try {
    const copy = JSON.parse(text) as LocalCopy;
    return copy && typeof copy === 'object' && Array.isArray(copy.definition?.journeys) && typeof copy.savedAt === 'string' ? copy : null;
  } catch {
    return null; // a copy this version cannot read: nothing to offer
  }
}

/** The keys of the copies kept in this browser; with `userId`, only that member's. */
function keys(userId?: string): string[] {
  return Object.keys(localStorage).filter((key) => key.startsWith(userId === undefined ? PREFIX : `${PREFIX}${userId}:`));
}

export function readLocalCopy(userId: string, botId: string): LocalCopy | null {
  try {
    dropStaleCopies();
    return parse(localStorage.getItem(keyOf(userId, botId)));
  } catch {
    return null; // storage blocked: nothing to offer
  }
}

export function writeLocalCopy(userId: string, botId: string, definition: Definition, basedOn: string | null): void {
  try {
    localStorage.setItem(keyOf(userId, botId), JSON.stringify({ definition, savedAt: new Date().toISOString(), basedOn } satisfies LocalCopy));
  } catch {
    // Storage full or blocked: the leave guard still asks before the page is left.
  }
}

export function dropLocalCopy(userId: string, botId: string): void {
  try {
    localStorage.removeItem(keyOf(userId, botId));
  } catch {
    /* nothing kept */
  }
}

export function hasLocalCopies(userId: string): boolean {
  try {
    return keys(userId).length > 0;
  } catch {
    return false;
  }
}

/** At sign-out: this member's copies go; other members' stay theirs. */
export function dropLocalCopies(userId: string): void {
  try {
    for (const key of keys(userId)) localStorage.removeItem(key);
  } catch {
    /* nothing kept */
  }
}

/** Anyone's copies past KEPT_FOR_MS, unreadable, or kept without their member (written by an older console). */
function dropStaleCopies(): void {
  const now = Date.now();
  for (const key of keys()) {
    const copy = parse(localStorage.getItem(key));
    const owned = key.slice(PREFIX.length).includes(':');
    if (!owned || !copy || !(now - Date.parse(copy.savedAt) < KEPT_FOR_MS)) localStorage.removeItem(key);
  }
}
