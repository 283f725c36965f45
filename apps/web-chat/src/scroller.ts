/** How close to the end (px) still counts as reading the newest message. */
const NEAR_END = 48;

/**
 * Keeps the conversation scrolled to the newest message while the reader is there: when messages are
 * added, when images above load and grow the list, and when the window or keyboard resizes it. A reader
 * who scrolled up stays where they are, and `onUnseen` reports messages they have not seen yet (the
 * "new messages ↓" button).
 */
export class Scroller {
  private pinned = true;
  private lastTop = 0;
  private readonly sizes: ResizeObserver;

  constructor(
    private readonly log: HTMLElement,
    private readonly onUnseen: (unseen: boolean) => void,
  ) {
    this.sizes = new ResizeObserver(() => this.follow());
    this.sizes.observe(log);
    // Only the reader scrolling up unpins: content that grows under a pinned list moves the end away
    // without moving scrollTop, and must not count as the reader leaving.
    log.addEventListener('scroll', () => {
      const top = log.scrollTop;
      if (this.atEnd()) {
        this.pinned = true;
        this.onUnseen(false);
      } else if (top < this.lastTop - 1) this.pinned = false;
      this.lastTop = top;
    });
    // An image that loads grows its message after it was placed: stay at the end (load does not bubble).
    log.addEventListener('load', () => this.follow(), true);
  }

  /** Call after appending `nodes`: follows them when the reader is at the end, else counts them unseen. */
  added(nodes: readonly Element[], own = false): void {
    for (const node of nodes) this.sizes.observe(node);
    if (own) this.pinned = true; // the user's own message always brings them to the end
    if (this.pinned) this.toEnd();
    else this.onUnseen(true);
  }

  /** Scrolls to the newest message (the "new messages ↓" button). */
  toEnd(): void {
    this.pinned = true;
    this.follow();
    this.onUnseen(false);
  }

  private follow(): void {
    if (!this.pinned) return;
    this.log.scrollTop = this.log.scrollHeight;
    this.lastTop = this.log.scrollTop;
  }

  private atEnd(): boolean {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight <= NEAR_END;
  }
}
