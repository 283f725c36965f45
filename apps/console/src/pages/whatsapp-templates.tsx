import { useState } from 'preact/hooks';
import type { TemplateButtonSpec, TemplateSyncView, TemplateView } from '@platform/contracts/views';
import { buttonValueKind } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { EmptyState, ErrorNotice, Pager, Spinner, Success, useAction, useLoad, usePage, when } from '../ui.js';
import { FileText } from '../icons.js';

/** The bot's carousel templates as synced from Meta (or registered by hand), and the sync itself. */
export function TemplatesPage({ bot }: { bot: Bot }) {
  const templates = useLoad(() => api<{ templates: TemplateView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/templates`), [bot.id]);
  const paged = usePage(templates.data?.templates ?? [], 10);
  const sync = useAction();
  const [result, setResult] = useState<TemplateSyncView | null>(null);
  const run = async () => {
    setResult(null);
    const r = await sync.run(() => api<TemplateSyncView>('POST', `/v1/bots/${bot.id}/whatsapp/templates/sync`));
    if (r) {
      setResult(r);
      void templates.reload(true);
    }
  };
  return (
    <>
      <p class="muted">
        Carousel templates are approved by Meta in your WhatsApp Business Account. Syncing reads them through the Cloud API (from every sender with a Business Account id) with their status, cards,
        headers and buttons; only approved ones are sent.
      </p>
      {roleAtLeast(bot.role, 'admin') ? (
        <div class="button-row">
          <button type="button" onClick={run} aria-busy={sync.busy} disabled={sync.busy}>
            Sync from Meta
          </button>
        </div>
      ) : (
        <p class="muted">An admin of the bot can sync the templates from Meta.</p>
      )}
      {sync.busy && <Spinner label="Syncing templates from Meta…" />}
      <ErrorNotice error={sync.error} />
      {result && <SyncResult result={result} />}

      <h2>Templates</h2>
      <ErrorNotice error={templates.error} />
      {templates.loading && !templates.data ? (
        <Spinner label="Loading templates…" />
      ) : paged.rows.length === 0 ? (
        <EmptyState icon={FileText} title="No templates yet" testId="empty-templates">
          Press <strong>Sync from Meta</strong> to read your approved carousels from the senders' WhatsApp Business Accounts (a sender needs its Business Account id), or the operator registers one by
          hand (<code>npm run cli -- template create</code>).
        </EmptyState>
      ) : (
        <>
          <ul class="templates" aria-busy={templates.loading}>
            {paged.rows.map((t) => (
              <TemplateItem t={t} />
            ))}
          </ul>
          <Pager {...paged} label="Templates" />
        </>
      )}
    </>
  );
}

function SyncResult({ result }: { result: TemplateSyncView }) {
  const accounts = result.accounts.join(', ');
  return (
    <Success>
      <p data-testid="sync-result">
        Synced from WhatsApp Business Account {accounts}: {result.created} created, {result.updated} updated, {result.unchanged} unchanged, {result.deleted} deleted
        {result.skipped ? `, ${result.skipped} skipped (not carousels)` : ''}.
      </p>
      {result.templates.length > 0 && (
        <ul>
          {result.templates.map((t) => (
            <li>
              {t.name} ({t.language}, {t.status}): {t.change}
            </li>
          ))}
        </ul>
      )}
    </Success>
  );
}

function TemplateItem({ t }: { t: TemplateView }) {
  const headingId = `template-${t.id}`;
  return (
    <li>
      <article aria-labelledby={headingId} data-template-id={t.id}>
        <header>
          <h3 id={headingId}>{t.name}</h3>
          <span class={`badge ${t.status === 'APPROVED' ? 'ok' : 'muted'}`} data-testid="template-status">
            {t.status}
          </span>{' '}
          <span class="badge muted">{t.source === 'synced' ? 'Synced from Meta' : 'Registered by hand'}</span>
        </header>
        <dl class="facts">
          <dt>Language</dt>
          <dd>{t.language}</dd>
          <dt>Category</dt>
          <dd>{t.category}</dd>
          <dt>Cards</dt>
          <dd data-testid="card-count">{t.cardCount}</dd>
          <dt>Card header</dt>
          <dd data-testid="header-format">{t.cardHeaderFormat}</dd>
          <dt>Body placeholders</dt>
          <dd>{t.bodyParameterCount}</dd>
          <dt>Updated</dt>
          <dd>{when(t.updatedAt)}</dd>
          <dt>Id</dt>
          <dd>
            <code>{t.id}</code>
          </dd>
        </dl>
        {t.cards ? (
          <ol class="cards" aria-label={`Cards of ${t.name}`}>
            {t.cards.map((card, i) => (
              <li data-testid="template-card">
                <strong>Card {i + 1}</strong>
                {card.bodyParameterCount > 0 && (
                  <span class="muted">
                    {' '}
                    · {card.bodyParameterCount} body placeholder{card.bodyParameterCount > 1 ? 's' : ''}
                  </span>
                )}
                {card.buttons.length === 0 ? (
                  <p class="muted">No buttons.</p>
                ) : (
                  <ul class="buttons" aria-label={`Buttons of card ${i + 1}`}>
                    {card.buttons.map((b) => (
                      <li>
                        <ButtonSpec b={b} />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        ) : (
          <p class="muted">Registered by hand: its buttons and placeholders are not known, and trigger values are sent unchecked.</p>
        )}
      </article>
    </li>
  );
}

const BUTTON_TYPES: Record<string, string> = { QUICK_REPLY: 'Quick reply', URL: 'URL', PHONE_NUMBER: 'Phone number' };

function ButtonSpec({ b }: { b: TemplateButtonSpec }) {
  const kind = buttonValueKind(b);
  return (
    <>
      <span class="badge">{BUTTON_TYPES[b.type] ?? b.type}</span> “{b.text}”
      {b.url && (
        <>
          {' '}
          → <code>{b.url}</code>
        </>
      )}
      {kind === 'url' && (
        <span class="muted">
          {' '}
          (dynamic suffix: each trigger gives <code>urlSuffix</code>)
        </span>
      )}
      {kind === 'quick_reply' && (
        <span class="muted">
          {' '}
          (each trigger gives its <code>payload</code>)
        </span>
      )}
    </>
  );
}
