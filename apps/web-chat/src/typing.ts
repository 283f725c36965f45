// The file itself, not @platform/contracts's index: that would bundle the API's validators into the page.
import { TYPING_SHOWN_MS } from '../../../libs/contracts/src/conversations/message-content.js';

/**
 * "<bot> is typing…" while the bot works on the user's message: shown from the gateway's typing event,
 * hidden by the bot's next message, a typing-off event, or TYPING_SHOWN_MS after the event's time (a
 * bot that never answers, or an old event replayed after a reload, leaves no indicator behind).
 */
export class Typing {
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly line: HTMLElement,
    private readonly text: HTMLElement,
    private readonly name: () => string,
    private readonly now = () => Date.now(),
  ) {
    this.hide();
  }

  show(at: string): void {
    const left = TYPING_SHOWN_MS - (this.now() - Date.parse(at));
    if (!(left > 0)) return;
    clearTimeout(this.timer);
    this.text.textContent = `${this.name()} is typing`;
    const dots = document.createElement('span');
    dots.className = 'dots';
    dots.setAttribute('aria-hidden', 'true');
    this.text.append(dots);
    this.line.classList.add('on');
    this.timer = setTimeout(() => this.hide(), left);
  }

  hide(): void {
    clearTimeout(this.timer);
    this.line.classList.remove('on');
    this.text.textContent = '';
  }

  get shown(): boolean {
    return this.line.classList.contains('on');
  }
}
