import { useEffect } from 'preact/hooks';
import { Bot, api } from '../api.js';
import { useMessageEvents } from '../live.js';
import { href } from '../router.js';
import { ErrorNotice, Spinner, useLoad, when } from '../ui.js';
import type { MessageEntry } from './messages.js';

const FINAL = ['read', 'failed'];

export function MessageDetailPage({ bot, msgId }: { bot: Bot; msgId: string }) {
  const m = useLoad(() => api<MessageEntry>('GET', `/v1/bots/${bot.id}/messages/${encodeURIComponent(msgId)}`), [bot.id, msgId]);
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
    </section>
  );
}
