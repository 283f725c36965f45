import type { ConversationMessageView, QuickReply } from '@platform/contracts';
import { textColorOn } from './bar-colors.js';
import { ChatClient, ClientState } from './chat-client.js';
import { ChatApiError } from './chat-api.error.js';
import { notifyHost, onHostCommand } from './host-bridge.js';
import { readPageParams } from './page-params.js';
import { renderMessage } from './render.js';
import { attachSpeech, speechRecognizer } from './speech.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const log = $<HTMLElement>('log');
const status = $<HTMLElement>('status');
const form = $<HTMLFormElement>('composer');
const input = $<HTMLInputElement>('input');
const send = $<HTMLButtonElement>('send');
const shown = new Set<string>();

function setStatus(text: string): void {
  status.textContent = text;
}

function setEnabled(enabled: boolean): void {
  input.disabled = send.disabled = !enabled;
}

/** Adds a message once (the transcript, the live stream and our own echo may all carry it). */
function show(view: ConversationMessageView, onReply: (r: QuickReply) => void): void {
  if (shown.has(view.id)) return;
  shown.add(view.id);
  // Quick replies answer the latest bot message only.
  if (view.direction === 'outbound') log.querySelectorAll('.replies').forEach((n) => n.remove());
  for (const node of renderMessage(view, onReply)) log.append(node);
  log.scrollTop = log.scrollHeight;
}

function main(): void {
  const params = readPageParams(location.search, location.hash);
  if (typeof params === 'string') return setStatus(params);
  const root = document.documentElement;
  if (params.statusBarColor) {
    root.style.setProperty('--bar', params.statusBarColor);
    root.style.setProperty('--bar-text', textColorOn(params.statusBarColor));
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', params.statusBarColor);
  }
  if (params.closeButtonColor) root.style.setProperty('--close', params.closeButtonColor);

  const client = new ChatClient(params, location.origin, {
    message: (view) => show(view, reply),
    state: (state: ClientState, detail?: string) => {
      setEnabled(state === 'online' || state === 'connecting' || state === 'offline');
      setStatus(state === 'online' ? '' : (detail ?? (state === 'connecting' ? 'Connecting…' : state === 'closed' ? 'Chat closed.' : '')));
    },
  });

  async function deliver(text: string, payload?: string): Promise<void> {
    const pending: ConversationMessageView = {
      id: `local-${Date.now()}`,
      conversationId: '',
      direction: 'inbound',
      type: payload === undefined ? 'text' : 'quick_reply',
      content: { text },
      status: null,
      createdAt: new Date().toISOString(),
    };
    try {
      const { messageId } = await client.send(text, payload);
      show({ ...pending, id: messageId }, reply);
    } catch (err) {
      setStatus(err instanceof ChatApiError ? err.message : 'The message could not be sent. Check the connection and try again.');
    }
  }

  function reply(r: QuickReply): void {
    void deliver(r.title, r.payload);
  }

  async function load(restart = false): Promise<void> {
    setStatus('Connecting…');
    try {
      const transcript = restart ? await client.restart() : await client.open();
      if (restart) {
        log.replaceChildren();
        shown.clear();
      }
      for (const view of transcript) show(view, reply);
      setEnabled(true);
      notifyHost('ready');
    } catch (err) {
      setStatus(err instanceof ChatApiError ? err.message : 'The chat could not be reached. Reload to try again.');
    }
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    void deliver(text);
  });
  $<HTMLButtonElement>('close').addEventListener('click', () => {
    client.stop();
    notifyHost('close');
  });
  onHostCommand((command) => {
    if (command === 'closeBot') client.stop();
    else void load(true);
  });
  const Recognizer = params.enableSpeech ? speechRecognizer() : undefined;
  if (Recognizer) attachSpeech($<HTMLButtonElement>('mic'), Recognizer, (text) => void deliver(text));
  void load();
}

main();
