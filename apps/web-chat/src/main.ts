import type { QuickReply } from '@platform/contracts';
import { closeColorOn, textColorOn } from './bar-colors.js';
import { BotProfile, ChatClient, ClientState } from './chat-client.js';
import { ChatApiError } from './chat-api.error.js';
import { inNativeShell, notifyHost, onHostCommand } from './host-bridge.js';
import { botMessageAfter, type PageMessageView, placeOf, seqOf } from './order.js';
import { Outbox, Outgoing } from './outbox.js';
import { readPageParams } from './page-params.js';
import { renderMessage, renderOutgoing, renderUpload, setBotName, settleUpload, showOutgoingState } from './render.js';
import { TabSync } from './tab-sync.js';
import { Typing } from './typing.js';
import { Scroller } from './scroller.js';
import { attachSpeech, speechRecognizer } from './speech.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const log = $<HTMLElement>('log');
const status = $<HTMLElement>('status');
const form = $<HTMLFormElement>('composer');
const input = $<HTMLInputElement>('input');
const send = $<HTMLButtonElement>('send');
const newer = $<HTMLButtonElement>('newer');
const attach = $<HTMLButtonElement>('attach');
const fileInput = $<HTMLInputElement>('file');
const shown = new Set<string>();
const scroller = new Scroller(log, (unseen) => (newer.hidden = !unseen));

function setStatus(text: string): void {
  status.textContent = text;
}

/** A link the page cannot use: a page for the person who opened it, in place of the chat. */
function showProblem(problem: string): void {
  $<HTMLElement>('problem-text').textContent = problem;
  $<HTMLElement>('problem').hidden = false;
  for (const id of ['log', 'status', 'composer', 'close', 'typing']) $<HTMLElement>(id).hidden = true;
  document.title = 'This chat link does not work';
}

/**
 * Puts a bubble the server has just recorded where the transcript has it (by `seq`): up among what
 * the bot said while it waited, and out of the unsent bubbles at the end. Left in place when that is
 * its place already.
 */
function settle(bubble: HTMLElement, seq: string | undefined): void {
  delete bubble.dataset.unsent;
  if (seq !== undefined) bubble.dataset.seq = seq;
  const before = placeOf(log, seq, bubble);
  if (bubble.nextElementSibling !== before) log.insertBefore(bubble, before);
}

/** Adds a message once (the transcript, the live stream, our own send and another tab may all carry it); false when it was there. */
function show(view: PageMessageView, onReply: (r: QuickReply) => void): boolean {
  if (shown.has(view.id)) return false;
  shown.add(view.id);
  const seq = seqOf(view.seq);
  // The user's message that this tab put on screen already (a copy of this tab, sharing its outbox, had
  // it confirmed first): that bubble is it. Matched by the page's own id for it, never by its words: a
  // file has none, and another tab may send the same words.
  if (view.direction === 'inbound' && view.clientMessageId !== undefined) {
    const own = Array.from(log.querySelectorAll<HTMLElement>('.msg.user[data-client-id]:not([data-id])')).find((b) => b.dataset.clientId === view.clientMessageId);
    if (own) {
      own.dataset.id = view.id;
      settle(own, seq);
      return true;
    }
  }
  let nodes = renderMessage(view, onReply);
  if (view.direction === 'outbound') {
    // Quick replies answer the latest bot message only: one that arrives after a later one shows none.
    if (botMessageAfter(log, seq)) nodes = nodes.filter((n) => !n.classList.contains('replies'));
    else log.querySelectorAll('.replies').forEach((n) => n.remove());
  }
  // In the conversation's order (the transcript's after a reload), before the bubbles not sent yet.
  const before = placeOf(log, seq);
  for (const node of nodes) {
    if (seq !== undefined) node.dataset.seq = seq;
    log.insertBefore(node, before);
  }
  scroller.added(nodes);
  return true;
}

/** The bot's name in the bar and for screen readers, its picture in the bar and beside its messages. */
function applyProfile(profile: BotProfile): void {
  const name = profile.displayName?.trim();
  if (name) {
    $<HTMLElement>('title').textContent = name;
    document.title = name;
    setBotName(name);
    log.querySelectorAll('.msg.bot > .sr-only:first-child').forEach((n) => (n.textContent = `${name}: `));
  }
  const avatar = $<HTMLImageElement>('avatar');
  if (profile.avatarUrl) {
    const url = new URL(profile.avatarUrl, location.origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
    avatar.src = url.href;
    avatar.referrerPolicy = 'no-referrer';
    avatar.hidden = false;
    document.documentElement.style.setProperty('--avatar', `url("${url.href.replace(/["\\\n]/g, encodeURIComponent)}")`);
    document.documentElement.classList.add('has-avatar');
  }
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

  let botName = 'The bot';
  const typing = new Typing($<HTMLElement>('typing'), $<HTMLElement>('typing-text'), () => botName);
  const client = new ChatClient(params, location.origin, {
    message: (view) => {
      if (view.direction === 'outbound') typing.hide();
      // The host counts unread bot messages (the embed's badge, the SDKs' onMessage).
      if (show(view, reply) && view.direction === 'outbound') notifyHost({ type: 'message', id: view.id, direction: view.direction });
    },
    event: (id, event) => notifyHost({ type: 'event', id, event }),
    typing: (on, at) => (on ? typing.show(at) : typing.hide()),
    state: (state: ClientState, detail?: string) => {
      input.disabled = send.disabled = attach.disabled = state === 'closed';
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
    changed: (item, messageId, seq) => outgoingChanged(item, messageId, seq),
  });
  // The user's own messages, confirmed in one tab, appear in the others (the stream carries only the bot's).
  const tabs = new TabSync(params.botId, params.token, (view) => show(view, reply));
  void client.profile().then((profile) => {
    botName = profile.displayName?.trim() || botName;
    applyProfile(profile);
  });

  function placeOutgoing(item: Outgoing): void {
    const bubble = renderOutgoing(item, retry);
    bubble.dataset.text = item.text;
    bubble.dataset.unsent = '';
    bubbles.set(item.clientId, bubble);
    log.append(bubble);
    scroller.added([bubble], true);
  }

  /** A failed message queued again goes after those waiting: its bubble moves to the end, where it will be sent. */
  function retry(clientId: string): void {
    const bubble = bubbles.get(clientId);
    if (bubble && bubble !== log.lastElementChild) log.append(bubble);
    outbox.retry(clientId);
  }

  function outgoingChanged(item: Outgoing, messageId?: string, seq?: string): void {
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
    settle(bubble, seq);
    tabs.post({
      id: messageId,
      conversationId: '',
      direction: 'inbound',
      type: item.payload === undefined ? 'text' : 'quick_reply',
      content: { text: item.text },
      status: null,
      createdAt: item.createdAt,
      seq,
      clientMessageId: item.clientId,
    });
  }

  /** Sends a picture or file the user chose; a refusal (type, size) shows the server's reason on its bubble. */
  async function upload(file: File): Promise<void> {
    const clientId = `f${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    const bubble = renderUpload(clientId, file, new Date().toISOString());
    bubble.dataset.unsent = '';
    log.append(bubble);
    scroller.added([bubble], true);
    try {
      const view = await client.upload(file, clientId);
      if (shown.has(view.id)) return bubble.remove();
      shown.add(view.id);
      settleUpload(bubble, view);
      settle(bubble, view.seq);
      tabs.post({ ...view, clientMessageId: clientId });
    } catch (err) {
      // Refused, it will never be sent: it stays where it is, a note of what happened then.
      delete bubble.dataset.unsent;
      settleUpload(bubble, undefined, err instanceof ChatApiError ? err.message : 'the connection failed; try again');
    }
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
      input.disabled = send.disabled = attach.disabled = false;
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
  attach.addEventListener('click', () => fileInput.click());
  fileInput.addEventListener('change', () => {
    for (const file of Array.from(fileInput.files ?? [])) void upload(file);
    fileInput.value = '';
  });
  $<HTMLButtonElement>('close').addEventListener('click', () => {
    // In the embed's iframe the widget is only hidden: the stream stays open, so the bot's messages
    // meanwhile reach the launcher's unread badge and are there when it opens again. A native shell or a tab closes it.
    if (window.parent === window || inNativeShell()) client.stop();
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
