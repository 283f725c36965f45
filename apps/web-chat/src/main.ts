import type { ConversationMessageView, QuickReply } from '@platform/contracts';
import { closeColorOn, textColorOn } from './bar-colors.js';
import { ChatClient, ClientState } from './chat-client.js';
import { ChatApiError } from './chat-api.error.js';
import { notifyHost, onHostCommand } from './host-bridge.js';
import { Outbox, Outgoing } from './outbox.js';
import { readPageParams } from './page-params.js';
import { renderMessage, renderOutgoing, showOutgoingState } from './render.js';
import { Scroller } from './scroller.js';
import { attachSpeech, speechRecognizer } from './speech.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const log = $<HTMLElement>('log');
const status = $<HTMLElement>('status');
const form = $<HTMLFormElement>('composer');
const input = $<HTMLInputElement>('input');
const send = $<HTMLButtonElement>('send');
const newer = $<HTMLButtonElement>('newer');
const shown = new Set<string>();
const scroller = new Scroller(log, (unseen) => (newer.hidden = !unseen));

function setStatus(text: string): void {
  status.textContent = text;
}

/** A link the page cannot use: a page for the person who opened it, in place of the chat. */
function showProblem(problem: string): void {
  $<HTMLElement>('problem-text').textContent = problem;
  $<HTMLElement>('problem').hidden = false;
  for (const id of ['log', 'status', 'composer', 'close']) $<HTMLElement>(id).hidden = true;
  document.title = 'This chat link does not work';
}

/** Adds a message once (the transcript, the live stream and our own send may all carry it). */
function show(view: ConversationMessageView, onReply: (r: QuickReply) => void): void {
  if (shown.has(view.id)) return;
  shown.add(view.id);
  // The user's message that our send put on screen already (its answer has not come yet): that bubble is it.
  if (view.direction === 'inbound') {
    const own = Array.from(log.querySelectorAll<HTMLElement>('.msg.user[data-client-id]:not([data-id])')).find((b) => b.classList.contains('pending') && b.dataset.text === view.content?.text);
    if (own) {
      own.dataset.id = view.id;
      return;
    }
  }
  // Quick replies answer the latest bot message only.
  if (view.direction === 'outbound') log.querySelectorAll('.replies').forEach((n) => n.remove());
  const nodes = renderMessage(view, onReply);
  // Messages the user typed and the server has not confirmed stay last, in the order typed.
  const firstPending = log.querySelector('.msg.user[data-client-id]:not([data-id])');
  for (const node of nodes) log.insertBefore(node, view.direction === 'inbound' ? firstPending : null);
  scroller.added(nodes);
}

function main(): void {
  const params = readPageParams(location.search, location.hash);
  if ('problem' in params) return showProblem(params.problem);
  const root = document.documentElement;
  if (params.statusBarColor) {
    root.style.setProperty('--bar', params.statusBarColor);
    root.style.setProperty('--bar-text', textColorOn(params.statusBarColor));
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', params.statusBarColor);
  }
  const bar = params.statusBarColor ?? '#1f3a5f';
  root.style.setProperty('--close', closeColorOn(bar, params.closeButtonColor));

  const client = new ChatClient(params, location.origin, {
    message: (view) => {
      // The host counts unread bot messages (the embed's badge, the SDKs' onMessage).
      if (!shown.has(view.id) && view.direction === 'outbound') notifyHost({ type: 'message', id: view.id, direction: view.direction });
      show(view, reply);
    },
    event: (id, event) => notifyHost({ type: 'event', id, event }),
    state: (state: ClientState, detail?: string) => {
      input.disabled = send.disabled = state === 'closed';
      if (!navigator.onLine) return setStatus('You are offline. Messages you send will wait and go once you are back online.');
      setStatus(state === 'online' ? '' : (detail ?? (state === 'connecting' ? 'Connecting…' : state === 'closed' ? 'Chat closed.' : '')));
    },
  });

  const bubbles = new Map<string, HTMLElement>();
  let ready = false; // a session exists: sends can start
  const outbox = new Outbox({
    storage: sessionStorage,
    storageKey: `botchat:${params.botId}:outbox`,
    isOnline: () => ready && navigator.onLine,
    send: (item) => client.send(item.text, item.payload, item.clientId),
    changed: (item, messageId) => outgoingChanged(item, messageId),
  });

  function placeOutgoing(item: Outgoing): void {
    const bubble = renderOutgoing(item, (id) => outbox.retry(id));
    bubble.dataset.text = item.text;
    bubbles.set(item.clientId, bubble);
    log.append(bubble);
    scroller.added([bubble], true);
  }

  function outgoingChanged(item: Outgoing, messageId?: string): void {
    const bubble = bubbles.get(item.clientId);
    if (!bubble) return placeOutgoing(item);
    if (!messageId) return showOutgoingState(bubble, item, navigator.onLine);
    bubbles.delete(item.clientId);
    if (shown.has(messageId) && bubble.dataset.id !== messageId) {
      bubble.remove(); // already on screen from the transcript (it arrived before a reload)
      return;
    }
    shown.add(messageId);
    bubble.dataset.id = messageId;
    showOutgoingState(bubble, undefined, true);
  }

  function deliver(text: string, payload?: string): void {
    outbox.add(text, payload);
  }

  function reply(r: QuickReply): void {
    deliver(r.title, r.payload);
  }

  async function load(restart = false): Promise<void> {
    setStatus('Connecting…');
    try {
      const transcript = restart ? await client.restart() : await client.open();
      if (restart) {
        log.replaceChildren();
        shown.clear();
        bubbles.clear();
      }
      for (const view of transcript) show(view, reply);
      for (const item of outbox.list()) if (!bubbles.has(item.clientId)) placeOutgoing(item);
      input.disabled = send.disabled = false;
      ready = true;
      notifyHost({ type: 'ready' });
      void outbox.resume();
    } catch (err) {
      for (const item of outbox.list()) if (!bubbles.has(item.clientId)) placeOutgoing(item);
      setStatus(err instanceof ChatApiError ? err.message : 'The chat could not be reached. It will try again when the connection is back.');
      input.disabled = send.disabled = false; // what is typed waits in the outbox
      if (!navigator.onLine) window.addEventListener('online', () => void load(restart), { once: true });
    }
  }

  window.addEventListener('online', () => {
    setStatus('');
    void outbox.resume();
  });
  window.addEventListener('offline', () => {
    setStatus('You are offline. Messages you send will wait and go once you are back online.');
    for (const item of outbox.list()) {
      const bubble = bubbles.get(item.clientId);
      if (bubble) showOutgoingState(bubble, item, false);
    }
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    deliver(text);
  });
  newer.addEventListener('click', () => scroller.toEnd());
  $<HTMLButtonElement>('close').addEventListener('click', () => {
    client.stop();
    notifyHost({ type: 'close' });
  });
  // A host that loads a new address differing only in its fragment (a push tap's payload, another
  // token) gets a same-document navigation: read the new parameters by loading again.
  window.addEventListener('hashchange', () => location.reload());
  onHostCommand((command) => {
    if (command === 'closeBot') client.stop();
    else void load(true);
  });
  const Recognizer = params.enableSpeech ? speechRecognizer() : undefined;
  if (Recognizer) attachSpeech($<HTMLButtonElement>('mic'), Recognizer, (text) => deliver(text));
  void load();
}

main();
