import { useEffect } from 'preact/hooks';
import { Bot, api } from '../api.js';
import { useMessageEvents } from '../live.js';
import { href } from '../router.js';
import { ErrorNotice, Spinner, useLoad, when } from '../ui.js';
import type { MessageEntry } from './messages.js';

const FINAL = ['read', 'failed'];

interface AttemptEvent {
  at: string;
  attempt: number;
  kind: 'retry' | 'throttled' | 'failed';
  code: string | null;
  text: string | null;
}

const KIND_TEXT: Record<AttemptEvent['kind'], string> = { retry: 'failed, retried', throttled: 'throttled by Meta, retried (not counted)', failed: 'failed, given up' };

/** The message's life in order: accepted, each failed attempt, sent, delivered, read. */
function timeline(d: MessageEntry, attempts: AttemptEvent[]): Array<{ at: string; what: string; detail?: string }> {
  const steps = [
    { at: d.createdAt, what: 'Accepted' },
    ...attempts.map((a) => ({ at: a.at, what: `Attempt ${a.attempt}: ${KIND_TEXT[a.kind] ?? a.kind}`, detail: [a.code, a.text].filter(Boolean).join(': ') })),
    ...(d.sentAt ? [{ at: d.sentAt, what: `Sent (attempt ${d.attempts})` }] : []),
    ...(d.deliveredAt ? [{ at: d.deliveredAt, what: 'Delivered' }] : []),
    ...(d.readAt ? [{ at: d.readAt, what: 'Read' }] : []),
  ];
  return steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

export function MessageDetailPage({ bot, msgId }: { bot: Bot; msgId: string }) {
  const m = useLoad(() => api<MessageEntry>('GET', `/v1/bots/${bot.id}/messages/${encodeURIComponent(msgId)}`), [bot.id, msgId]);
  // A message still queued has no row, so no attempts: an empty timeline then.
  const attempts = useLoad(
    () => api<{ attempts: AttemptEvent[] }>('GET', `/v1/bots/${bot.id}/messages/${encodeURIComponent(msgId)}/attempts`).catch(() => ({ attempts: [] })),
    [bot.id, msgId, m.data?.updatedAt],
  );
  const status = m.data?.status;
  const following = !!status && !FINAL.includes(status);
  const live = useMessageEvents(
    bot.id,
    following,
    (e) => e.msgId === msgId && void m.reload(true),
    () => void m.reload(true),
  );
  // Only while the live stream is down.
  useEffect(() => {
    if (!following || live !== 'polling') return;
    const t = setInterval(() => void m.reload(true), 2000);
    return () => clearInterval(t);
  }, [following, live, m.reload]);
  const d = m.data;
  return (
    <section>
      <p>
        <a href={href('bots', bot.id, 'messages')}>← All messages</a>
      </p>
      <h1>Message</h1>
      <ErrorNotice error={m.error} />
      {m.loading && !d ? (
        <Spinner label="Loading the message…" />
      ) : d ? (
        <dl class="facts" data-testid="message-detail">
          <dt>Id</dt>
          <dd>
            <code>{d.msgId}</code>
          </dd>
          <dt>Status</dt>
          <dd>
            <span class={`badge status-${d.status}`} data-testid="status">
              {d.status}
            </span>
          </dd>
          <dt>Recipient</dt>
          <dd>+{d.recipient}</dd>
          <dt>Attempts</dt>
          <dd>{d.attempts}</dd>
          <dt>Provider message id</dt>
          <dd>{d.providerMessageId ? <code>{d.providerMessageId}</code> : '—'}</dd>
          <dt>Error code</dt>
          <dd>{d.lastError?.code ?? '—'}</dd>
          <dt>Error text</dt>
          <dd>{d.lastError?.text ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{when(d.createdAt)}</dd>
          <dt>Sent</dt>
          <dd>{when(d.sentAt)}</dd>
          <dt>Delivered</dt>
          <dd>{when(d.deliveredAt)}</dd>
          <dt>Read</dt>
          <dd>{when(d.readAt)}</dd>
          <dt>Last change</dt>
          <dd>{when(d.updatedAt)}</dd>
        </dl>
      ) : null}
      {d && (
        <>
          <h2>Timeline</h2>
          <ol class="timeline" data-testid="timeline">
            {timeline(d, attempts.data?.attempts ?? []).map((step) => (
              <li>
                <time dateTime={step.at}>{when(step.at)}</time> — {step.what}
                {step.detail && <div class="muted">{step.detail}</div>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
