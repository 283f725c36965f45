// Try it: the saved draft on the real runtime in a test conversation, with the node trace beside it.
// It polls (TRY_POLL_MS) while a test runs: the runtime answers in a few hundred milliseconds, and the
// trace and variables are read with the transcript in one call.
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Bot, api } from '../../api.js';
import { asApiError } from '../../ui.js';

export const TRY_POLL_MS = 700;

interface Button {
  title: string;
  payload?: string;
}
interface TryMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  type: string;
  content: { text?: string; quickReplies?: Button[]; image?: { url: string; caption?: string }; cards?: Array<{ title: string; subtitle?: string; buttons?: Button[] }> };
}
interface TryStep {
  id: string;
  journey: string;
  node: string;
  kind: string;
  outcome: string;
  error: string | null;
  durationMs: number;
  sandboxMs: number | null;
}
interface TryView {
  conversationId: string;
  version: number;
  messages: TryMessage[];
  trace: TryStep[];
  state: { status: string; journey: string | null; node: string | null; variables: Record<string, unknown> } | null;
}

export function TryIt({ base, beforeStart, canRun }: { bot: Bot; base: string; beforeStart: () => Promise<void>; canRun: boolean }) {
  const [view, setView] = useState<TryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const id = view?.conversationId;
  const log = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!id) return;
    let gone = false;
    const tick = async () => {
      try {
        const v = await api<TryView>('GET', `${base}/try/${id}`);
        if (!gone) setView(v);
      } catch (err) {
        if (!gone) setError(asApiError(err).message);
      }
    };
    const timer = setInterval(() => document.visibilityState === 'visible' && void tick(), TRY_POLL_MS);
    void tick();
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, [id]);
  useEffect(() => log.current?.lastElementChild?.scrollIntoView?.({ block: 'nearest' }), [view?.messages.length]);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await beforeStart();
      const r = await api<{ conversationId: string; version: number }>('POST', `${base}/try`, {});
      setWaited(null);
      setView({ conversationId: r.conversationId, version: r.version, messages: [], trace: [], state: null });
    } catch (err) {
      setError(asApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  const send = async (message: string, payload?: string) => {
    if (!id || !message.trim()) return;
    setError(null);
    try {
      await api('POST', `${base}/try/${id}/messages`, payload ? { text: message, payload } : { text: message });
      setText('');
    } catch (err) {
      setError(asApiError(err).message);
    }
  };
  // Steps do not record variables; the state does while a journey runs (an ended journey's are cleared), so
  // the pane keeps the variables it last saw with the node they were at.
  const [waited, setWaited] = useState<{ at: string; variables: Record<string, unknown> } | null>(null);
  useEffect(() => {
    const st = view?.state;
    if (!view) setWaited(null);
    else if (st && st.status !== 'ended') setWaited({ at: `${st.journey}/${st.node}`, variables: st.variables });
  }, [view]);
  const lastBot = [...(view?.messages ?? [])].reverse().find((m) => m.direction === 'outbound');

  return (
    <section class="try-it" aria-labelledby="try-title">
      <h2 id="try-title">Try it</h2>
      <p class="muted">Runs the draft (saved first) on the runtime in a test conversation, which the overview and the inbox leave out.</p>
      <button type="button" onClick={start} disabled={!canRun || busy} aria-busy={busy}>
        {view ? 'Restart the test' : 'Try the draft'}
      </button>
      {!canRun && !view && <p class="muted">Fix the problems above first (and it needs the developer role).</p>}
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      {view && (
        <>
          <ol class="chat" ref={log} aria-label="Test conversation" aria-live="polite" data-testid="try-chat">
            {view.messages.map((m) => (
              <li class={m.direction === 'inbound' ? 'from-user' : 'from-bot'}>
                <span class="visually-hidden">{m.direction === 'inbound' ? 'You: ' : 'Bot: '}</span>
                {m.content.text}
                {m.content.image && <span>[image {m.content.image.caption ?? m.content.image.url}]</span>}
                {m.content.cards?.map((c) => (
                  <span class="card">
                    <strong>{c.title}</strong> {c.subtitle}
                  </span>
                ))}
              </li>
            ))}
          </ol>
          {lastBot && ((lastBot.content.quickReplies?.length ?? 0) > 0 || lastBot.content.cards?.some((c) => c.buttons?.length)) && (
            <div class="quick-replies" role="group" aria-label="Quick replies">
              {[...(lastBot.content.quickReplies ?? []), ...(lastBot.content.cards ?? []).flatMap((c) => c.buttons ?? [])].map((b) => (
                <button type="button" class="secondary outline" onClick={() => send(b.title, b.payload)}>
                  {b.title}
                </button>
              ))}
            </div>
          )}
          <form
            class="chat-form"
            onSubmit={(e) => {
              e.preventDefault();
              void send(text);
            }}
          >
            <label for="try-text" class="visually-hidden">
              Message to the bot
            </label>
            <input id="try-text" value={text} placeholder="Message to the bot" autocomplete="off" onInput={(e) => setText((e.target as HTMLInputElement).value)} />
            <button type="submit">Send</button>
          </form>
          <h3>Trace</h3>
          <p class="muted" data-testid="try-state">
            Test version {view.version}. {stateText(view.state)}
          </p>
          <ol class="trace" data-testid="try-trace">
            {view.trace.map((s) => (
              <li class={s.outcome === 'error' || s.outcome === 'limit' ? 'bad' : ''}>
                <code>
                  {s.journey}/{s.node}
                </code>{' '}
                {s.kind} · {s.outcome} · {s.durationMs.toFixed(1)} ms{s.sandboxMs !== null ? ` (sandbox ${s.sandboxMs.toFixed(1)} ms)` : ''}
                {s.error && <div class="field-error">{s.error}</div>}
              </li>
            ))}
          </ol>
          {waited && (
            <details open>
              <summary>
                Variables {view.state?.status === 'ended' ? 'when the bot last waited' : 'now'} (at {waited.at})
              </summary>
              <pre data-testid="try-variables">{JSON.stringify(waited.variables, null, 2)}</pre>
            </details>
          )}
        </>
      )}
    </section>
  );
}

function stateText(state: TryView['state']): string {
  if (!state) return 'Waiting for the first turn…';
  if (state.status === 'waiting') return `The bot waits for an answer at ${state.journey}/${state.node}.`;
  if (state.status === 'handoff') return `Handed off to a person${state.node ? ` at ${state.journey}/${state.node}` : ''}.`;
  return 'The journey has ended.';
}
