import { useEffect, useRef, useState } from 'preact/hooks';
import type { OverviewDay, OverviewFunnel, OverviewResponse } from '@platform/contracts/views';
import { OVERVIEW_MAX_DAYS } from '@platform/contracts/views';
import { Bot, api } from '../api.js';
import { href } from '../router.js';
import { TableWrap } from '../data-table.js';
import { ErrorNotice, Spinner, useLoad } from '../ui.js';
import { Onboarding } from '../onboarding.js';

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
const PRESETS = [7, 30, 90];
const num = (n: number) => n.toLocaleString('en-US');
const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)}%`);

/** The console's home: a bot's messages, conversations and journeys over a range of UTC days. */
export function OverviewPage({ bot }: { bot: Bot }) {
  const [range, setRange] = useState({ from: daysBefore(today(), 29), to: today() });
  const [draft, setDraft] = useState(range);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const { data, error, loading } = useLoad(() => api<OverviewResponse>('GET', `/v1/bots/${bot.id}/overview?from=${range.from}&to=${range.to}`), [bot.id, range.from, range.to]);

  const apply = (e: Event) => {
    e.preventDefault();
    if (!draft.from || !draft.to) return setRangeError('Choose both the first and the last day.');
    if (draft.from > draft.to) return setRangeError('The first day must not be after the last day.');
    if ((Date.parse(draft.to) - Date.parse(draft.from)) / DAY_MS + 1 > OVERVIEW_MAX_DAYS) return setRangeError(`Choose at most ${OVERVIEW_MAX_DAYS} days.`);
    setRangeError(null);
    setRange(draft);
  };
  const preset = (n: number) => {
    const next = { from: daysBefore(today(), n - 1), to: today() };
    setDraft(next);
    setRangeError(null);
    setRange(next);
  };

  return (
    <section aria-labelledby="overview-title" data-testid="overview">
      <h1 id="overview-title">Overview</h1>
      <Onboarding bot={bot} />
      <form class="range" onSubmit={apply} aria-label="Time range" noValidate>
        <div role="group" aria-label="Quick ranges" class="presets">
          {PRESETS.map((n) => (
            <button type="button" class="secondary outline" aria-pressed={range.to === today() && range.from === daysBefore(today(), n - 1)} onClick={() => preset(n)}>
              Last {n} days
            </button>
          ))}
        </div>
        <label>
          From (UTC)
          <input
            type="date"
            value={draft.from}
            max={draft.to}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? 'range-error' : undefined}
            onInput={(e) => setDraft({ ...draft, from: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label>
          To (UTC)
          <input
            type="date"
            value={draft.to}
            min={draft.from}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? 'range-error' : undefined}
            onInput={(e) => setDraft({ ...draft, to: (e.target as HTMLInputElement).value })}
          />
        </label>
        <button type="submit">Show</button>
        {rangeError && (
          <small id="range-error" class="field-error" role="alert">
            {rangeError}
          </small>
        )}
      </form>
      <ErrorNotice error={error} />
      {loading && !data ? <Spinner label="Counting messages…" /> : data && <Numbers bot={bot} data={data} busy={loading} />}
    </section>
  );
}

function Numbers({ bot, data, busy }: { bot: Bot; data: OverviewResponse; busy: boolean }) {
  const { totals } = data;
  const replies = totals.replies.pending + totals.replies.sent + totals.replies.delivered + totals.replies.read + totals.replies.failed;
  return (
    <div aria-busy={busy}>
      <dl class="tiles" data-testid="overview-totals">
        <div>
          <dt>Carousels</dt>
          <dd>{num(totals.carousels.accepted)}</dd>
        </div>
        <div>
          <dt>Read</dt>
          <dd>{pct(totals.carousels.read, totals.carousels.accepted)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{pct(totals.carousels.failed, totals.carousels.accepted)}</dd>
        </div>
        <div>
          <dt>Replies</dt>
          <dd>{num(replies)}</dd>
        </div>
        {data.conversations.map((c) => (
          <div>
            <dt>Conversations, {c.channel === 'web' ? 'web chat' : 'WhatsApp'}</dt>
            <dd>{num(c.conversations)}</dd>
          </div>
        ))}
      </dl>

      <h2>Carousel messages per day</h2>
      {totals.carousels.accepted === 0 ? (
        <p class="empty" data-testid="empty-carousels">
          No carousel messages from {data.from} to {data.to}. Send one from <a href={href('bots', bot.id, 'whatsapp', 'test-carousel')}>WhatsApp → Test carousel</a>, or trigger one with an{' '}
          <a href={href('bots', bot.id, 'settings', 'api-keys')}>API key</a>.
        </p>
      ) : (
        <DaysChart days={data.days} of="carousels" title="Carousel messages per day by status" />
      )}

      <h2>Replies in conversations per day</h2>
      {replies === 0 ? (
        <p class="empty" data-testid="empty-replies">
          No replies from {data.from} to {data.to}. They appear once users write to the bot on WhatsApp or on the web chat and the bot answers.
        </p>
      ) : (
        <DaysChart days={data.days} of="replies" title="Replies per day by status" />
      )}

      <h2>Delivery by template</h2>
      {data.templates.length === 0 ? (
        <p class="empty">
          No template sent anything in this range. <a href={href('bots', bot.id, 'whatsapp', 'templates')}>Sync your templates</a> and send a test carousel.
        </p>
      ) : (
        <Funnel caption="Delivery funnel per template" first="Template" rows={data.templates.map((t) => ({ ...t, name: t.name ? `${t.name} (${t.language})` : 'deleted template' }))} />
      )}

      <h2>Delivery by sender</h2>
      {data.senders.length === 0 ? (
        data.senderNumbers === 0 ? (
          <p class="empty" data-testid="empty-senders">
            This bot has no sender number yet. <a href={href('bots', bot.id, 'whatsapp', 'senders')}>Add a sender number</a> first.
          </p>
        ) : (
          <p class="empty" data-testid="empty-senders">
            No sender sent anything from {data.from} to {data.to}. Send one a <a href={href('bots', bot.id, 'whatsapp', 'test-carousel')}>test carousel</a>, or choose a longer range.
          </p>
        )
      ) : (
        <Funnel caption="Delivery funnel per sender" first="Sender" rows={data.senders.map((s) => ({ ...s, name: s.number ? `+${s.number}` : 'deleted sender' }))} />
      )}

      <h2>Journeys</h2>
      {data.journeys.length === 0 ? (
        <p class="empty" data-testid="empty-journeys">
          No hosted-bot journey ran in this range. Publish a bot definition (docs/bots.md) and open the chat page to try it; completion and drop-off per node show here.
        </p>
      ) : (
        data.journeys.map((j) => (
          <details open class="journey">
            <summary>
              <strong>{j.journey}</strong>: {num(j.conversations)} {j.conversations === 1 ? 'conversation' : 'conversations'}, {pct(j.completed, j.conversations)} completed
              {j.handedOn > 0 && ` (${pct(j.handedOn, j.conversations)} by handing on to ${j.handedOnTo.length ? j.handedOnTo.join(', ') : 'another journey'})`}, {pct(j.waiting, j.conversations)} left
              waiting, {pct(j.errors, j.steps)} of steps failed
            </summary>
            <TableWrap>
              <table class="striped" data-testid={`journey-${j.journey}`}>
                <caption class="visually-hidden">Nodes of journey {j.journey}</caption>
                <thead>
                  <tr>
                    {['Node', 'Kind', 'Reached', 'Ended here', 'Left waiting here', 'Steps', 'Errors'].map((c) => (
                      <th scope="col">{c}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {j.nodes.map((n) => (
                    <tr>
                      <td>{n.node}</td>
                      <td>{n.kind}</td>
                      <td>
                        {num(n.reached)} ({pct(n.reached, j.conversations)})
                      </td>
                      <td>{n.kind === 'goto' ? `${num(n.handedOn)} handed on${n.handsOnTo ? ` to ${n.handsOnTo}` : ''}` : num(n.ended)}</td>
                      <td>{num(n.waiting)}</td>
                      <td>{num(n.steps)}</td>
                      <td class={n.errors > 0 ? 'bad' : undefined}>
                        {num(n.errors)} ({pct(n.errors, n.steps)})
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </details>
        ))
      )}
    </div>
  );
}

function Funnel({ caption, first, rows }: { caption: string; first: string; rows: Array<OverviewFunnel & { name: string }> }) {
  return (
    <TableWrap>
      <table class="striped">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {[first, 'Accepted', 'Sent', 'Delivered', 'Read', 'Failed', 'Pending'].map((c) => (
              <th scope="col">{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              <td>{r.name}</td>
              <td>{num(r.accepted)}</td>
              <td>
                {num(r.sent)} ({pct(r.sent, r.accepted)})
              </td>
              <td>
                {num(r.delivered)} ({pct(r.delivered, r.accepted)})
              </td>
              <td>
                {num(r.read)} ({pct(r.read, r.accepted)})
              </td>
              <td class={r.failed > 0 ? 'bad' : undefined}>
                {num(r.failed)} ({pct(r.failed, r.accepted)})
              </td>
              <td>{num(r.pending)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A uPlot chart (loaded on first use), with the same numbers as a table for screen readers and keyboards. */
function DaysChart({ days, of, title }: { days: OverviewDay[]; of: 'carousels' | 'replies'; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let destroy: (() => void) | undefined;
    let gone = false;
    import('./overview-charts.js').then(
      (m) => {
        if (!gone && box.current) destroy = m.drawDays(box.current, days, of);
      },
      () => setFailed(true),
    );
    return () => {
      gone = true;
      destroy?.();
    };
  }, [days, of]);
  return (
    <figure>
      <div ref={box} class="chart" role="img" aria-label={`${title}; the table below has the same numbers`} data-testid={`chart-${of}`} />
      {failed && <p class="notice warning">The chart could not load; the numbers are in the table below.</p>}
      <details>
        <summary>{title}: table</summary>
        <TableWrap>
          <table class="striped">
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {['Day (UTC)', 'Sent', 'Delivered', 'Read', 'Failed', 'Pending'].map((c) => (
                  <th scope="col">{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr>
                  <td>{d.day}</td>
                  <td>{num(d[of].sent)}</td>
                  <td>{num(d[of].delivered)}</td>
                  <td>{num(d[of].read)}</td>
                  <td>{num(d[of].failed)}</td>
                  <td>{num(d[of].pending)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </figure>
  );
}
