import type { ConversationMessageView } from '@platform/contracts';

/**
 * A message as the page may get it: from this platform with its place in the conversation (`seq`); a
 * view without one goes last. `clientMessageId`: the page's own id for a message of the user's, when
 * another tab of the chat passes it on (the server's views do not carry it).
 */
export type PageMessageView = ConversationMessageView & { seq?: string; clientMessageId?: string };

/** The message's place in the conversation (the transcript's order), or undefined when it has none the page can read. */
export function seqOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) ? value.replace(/^0+(?=\d)/, '') : undefined;
}

/** Orders two places (decimal integers without leading zeros, possibly past 2^53): negative when `a` is earlier. */
export function compareSeq(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * A user's bubble the server has not recorded (sending, waiting, or failed with "tap to retry"): these
 * stay last, in the order they will go, as after a reload, where the outbox shows them after the
 * transcript.
 */
export function isUnsent(node: Element): boolean {
  return (node as HTMLElement).dataset?.unsent !== undefined;
}

/**
 * The node a message whose place is `seq` goes before in the conversation: the first message the server
 * recorded after it, else the first unsent bubble, else none (the end). So the page shows what arrives
 * live in the order the transcript has after a reload, whatever order it arrived in. `moving` is left
 * out (a bubble being moved to its place). Nodes without a place (a file the server refused) are passed.
 */
export function placeOf(log: Element, seq: string | undefined, moving?: Element): Element | null {
  for (const child of Array.from(log.children)) {
    if (child === moving) continue;
    if (isUnsent(child)) return child;
    const other = (child as HTMLElement).dataset?.seq;
    if (seq !== undefined && other !== undefined && compareSeq(other, seq) > 0) return child;
  }
  return null;
}

/** Whether the bot has a message on screen the server recorded after `seq` (a late message then shows no quick replies). */
export function botMessageAfter(log: Element, seq: string | undefined): boolean {
  if (seq === undefined) return false;
  return Array.from(log.querySelectorAll<HTMLElement>('.msg.bot[data-seq]')).some((n) => compareSeq(n.dataset.seq!, seq) > 0);
}
