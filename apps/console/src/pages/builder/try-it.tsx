// Try it: the saved draft on the real runtime in a test conversation, shown in the hosted chat page itself
// (an iframe of /web/bot opened with the test's own chat token: quick replies, carousels and images as
// users get them), with the node trace beside it, live from the gateway's Server-Sent Events stream
// (Postgres tells the gateway when a test's steps commit: nothing polls).
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Bot, api } from '../../api.js';
import { asApiError } from '../../ui.js';

export interface TryStep {
  id: string;
  at: string;
  journey: string;
  node: string;
  kind: string;
  outcome: string;
  error: string | null;
  durationMs: number;
  sandboxMs: number | null;
  variables: Record<string, unknown> | null;
}
interface TryStart {
  conversationId: string;
  version: number;
  chatUrl: string;
}
type TraceMode = 'connecting' | 'live' | 'reconnecting';
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

/** The test's steps from the trace stream: each connection sends the steps already there, then each as it commits. */
function useTrace(base: string, id: string | undefined): { steps: TryStep[]; mode: TraceMode } {
  const [steps, setSteps] = useState<TryStep[]>([]);
  const [mode, setMode] = useState<TraceMode>('connecting');
  useEffect(() => {
    setSteps([]);
    if (!id || typeof EventSource === 'undefined') return;
    let stopped = false;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const again = () => {
      source?.close();
      source = null;
      if (stopped) return;
      setMode('reconnecting');
      retry = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    };
    const connect = async () => {
      if (stopped) return;
      let url: string;
      try {
        url = (await api<{ url: string }>('POST', `${base}/try/${id}/stream-ticket`)).url;
      } catch {
        return again();
      }
      if (stopped) return;
      const es = new EventSource(url);
      source = es;
      es.addEventListener('ready', () => {
        failures = 0;
        setMode('live');
      });
      es.addEventListener('step', (e) => {
        const step = JSON.parse((e as MessageEvent<string>).data) as TryStep;
        // A new connection sends every step again: kept once, in the order they ran.
        setSteps((list) => (list.some((s) => s.id === step.id) ? list : [...list, step].sort((a, b) => Number(a.id) - Number(b.id))));
      });
      es.addEventListener('end', () => {
        es.close();
        if (source === es) void connect();
      });
      // The ticket is spent: EventSource's own reconnect would be refused, so take a new one.
      es.onerror = () => {
        if (source === es) again();
      };
    };
    setMode('connecting');
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [id]);
  return { steps, mode };
}

export function TryIt({
  base,
  beforeStart,
  canRun,
  onPick,
  picked,
}: {
  bot: Bot;
  base: string;
  beforeStart: () => Promise<void>;
  canRun: boolean;
  /** Shows a step's node in the graph. */
  onPick: (journey: string, node: string) => void;
  /** The node shown in the graph now (its steps are marked). */
  picked: { journey: string; node: string | null };
}) {
  const [test, setTest] = useState<TryStart | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const { steps, mode } = useTrace(base, test?.conversationId);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => list.current?.lastElementChild?.scrollIntoView?.({ block: 'nearest' }), [steps.length]);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await beforeStart();
      setTest(await api<TryStart>('POST', `${base}/try`, {}));
      setOpen(null);
    } catch (err) {
      setError(asApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  const last = steps.at(-1);

  return (
    <section class="try-it" aria-labelledby="try-title">
      <h2 id="try-title">Try it</h2>
      <p class="muted">Runs the draft (saved first) on the runtime in the bot's own chat page, as a test conversation the overview and the inbox leave out.</p>
      <button type="button" onClick={start} disabled={!canRun || busy} aria-busy={busy}>
        {test ? 'Restart the test' : 'Try the draft'}
      </button>
      {!canRun && !test && <p class="muted">Fix the problems above first (and it needs the developer role).</p>}
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      {test && (
        <div class="try-panes">
          <iframe key={test.conversationId} class="try-chat" src={test.chatUrl} title="Test chat: the bot's chat page running the draft" data-testid="try-chat" />
          <div class="try-trace">
            <h3>Trace</h3>
            <p class="muted" data-testid="try-state" aria-live="polite">
              {/* A test's version is stored negative (docs/console.md); the tester sees them counted up. */}
              Test {Math.abs(test.version)}. {mode === 'live' ? '' : mode === 'connecting' ? 'Connecting to the trace…' : 'The trace stream dropped; reconnecting…'}{' '}
              {last ? lastText(last) : 'Waiting for the first step…'}
            </p>
            <ol class="trace" ref={list} data-testid="try-trace">
              {steps.map((s) => {
                const bad = s.outcome === 'error' || s.outcome === 'limit';
                const here = picked.journey === s.journey && picked.node === s.node;
                return (
                  <li class={`${bad ? 'bad' : ''} ${here ? 'picked' : ''}`} data-step={s.id}>
                    <button type="button" class="link" onClick={() => onPick(s.journey, s.node)} aria-pressed={here} title="Show this node in the graph">
                      <code>
                        {s.journey}/{s.node}
                      </code>
                    </button>{' '}
                    {s.kind} · {s.outcome} · {s.durationMs.toFixed(1)} ms{s.sandboxMs !== null ? ` (sandbox ${s.sandboxMs.toFixed(1)} ms)` : ''}
                    {s.error && <div class="field-error">{s.error}</div>}
                    {s.variables && (
                      <details open={open === s.id} onToggle={(e) => (e.target as HTMLDetailsElement).open && setOpen(s.id)}>
                        <summary>Variables after this step</summary>
                        <pre data-testid="try-variables">{JSON.stringify(s.variables, null, 2)}</pre>
                      </details>
                    )}
                  </li>
                );
              })}
            </ol>
          </div>
        </div>
      )}
    </section>
  );
}

function lastText(step: TryStep): string {
  if (step.outcome === 'waiting') return `The bot waits for an answer at ${step.journey}/${step.node}.`;
  if (step.kind === 'end') return 'The journey has ended.';
  if (step.kind === 'handoff') return `Handed off to a person at ${step.journey}/${step.node}.`;
  return `Last step: ${step.journey}/${step.node}.`;
}
