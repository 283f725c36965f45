import { useEffect, useState } from 'preact/hooks';
import type { CampaignAudienceView, CampaignPreviewRow, CampaignProgressView, CampaignView, MessagingLimitCheckView, SenderView, TemplateView } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { go, href } from '../router.js';
import { DataTable } from '../data-table.js';
import { count } from '../count.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, NotAllowed, Spinner, Success, useAction, useLoad, when } from '../ui.js';
import { SenderSelect, TemplateSelect, TemplateValueFields, type TemplateValueSlot, slotId, templateParams, templateSlots } from '../template-fields.js';

/**
 * Campaigns (docs/campaigns.md): the list and a new campaign from a CSV, or one campaign's live progress.
 * Its words keep one meaning throughout: rows are the file's lines (after its header), recipients the valid
 * rows of distinct numbers (each sent once); invalid rows and repeated numbers are counted apart from them.
 */
export function CampaignsPage({ bot, campaignId }: { bot: Bot; campaignId?: string }) {
  if (!roleAtLeast(bot.role, 'developer')) return <NotAllowed needed="developer" role={bot.role} />;
  return campaignId ? <CampaignDetail bot={bot} id={campaignId} /> : <CampaignList bot={bot} />;
}

const base = (bot: Bot) => `/v1/bots/${bot.id}/campaigns`;

function CampaignList({ bot }: { bot: Bot }) {
  const list = useLoad(() => api<{ campaigns: CampaignView[] }>('GET', base(bot)), [bot.id]);
  return (
    <>
      <h1>Campaigns</h1>
      <ErrorNotice error={list.error} />
      <DataTable
        loading={list.loading && !list.data}
        spinner="Loading campaigns…"
        rows={list.data?.campaigns}
        empty={<p data-testid="no-campaigns">No campaigns yet. Create one below from a CSV of recipients.</p>}
        caption="Campaigns"
        columns={['Name', 'Status', 'Recipients', 'Created']}
        testId="campaign-list"
        row={(c) => (
          <tr>
            <td>
              <a href={href('bots', bot.id, 'campaigns', c.id)}>{c.name}</a>
            </td>
            <td>{c.status}</td>
            <td>{c.audience.ready ? c.audience.rows - c.audience.invalid : '—'}</td>
            <td>{when(c.createdAt)}</td>
          </tr>
        )}
      />
      <NewCampaign bot={bot} onCreated={() => void list.reload(true)} />
    </>
  );
}

/** The CSV's header row, read from the file's first 64 KiB (the file itself is sent as it is, streamed). */
async function csvHeader(file: File): Promise<string[]> {
  const head = await file.slice(0, 64 * 1024).text();
  const line = head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  return line
    .split(',')
    .map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
}

function NewCampaign({ bot, onCreated }: { bot: Bot; onCreated: () => void }) {
  const senders = useLoad(() => api<{ senders: SenderView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/senders`), [bot.id]);
  const templates = useLoad(() => api<{ templates: TemplateView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/templates`), [bot.id]);
  const approved = templates.data?.templates.filter((t) => t.status === 'APPROVED') ?? [];
  if (senders.error || templates.error) return <ErrorNotice error={senders.error ?? templates.error} />;
  if (!senders.data || !templates.data) return <Spinner label="Loading senders and templates…" />;
  if (approved.length === 0 || senders.data.senders.length === 0) return <p>A campaign needs a sender number and an approved carousel template (WhatsApp → Senders, Templates).</p>;
  return <NewCampaignForm bot={bot} templates={approved} senders={senders.data.senders} onCreated={onCreated} />;
}

function NewCampaignForm({ bot, templates, senders, onCreated }: { bot: Bot; templates: TemplateView[]; senders: SenderView[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState(templates[0]!.id);
  const [sender, setSender] = useState(senders[0]!.number);
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [numberColumn, setNumberColumn] = useState('');
  const [tzColumn, setTzColumn] = useState('');
  // Per template value (keyed by template and slot): the column that fills it, or FIXED and the value for everyone.
  const [mapped, setMapped] = useState<Record<string, string>>({});
  const [fixed, setFixed] = useState<Record<string, string>>({});
  const [quietFrom, setQuietFrom] = useState('');
  const [quietTo, setQuietTo] = useState('');
  const [cap, setCap] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<{ campaign: CampaignView; audience: CampaignAudienceView } | null>(null);
  const action = useAction();
  const template = templates.find((t) => t.id === templateId) ?? templates[0]!;

  const pick = async (f: File | null) => {
    setFile(f);
    const header = f ? await csvHeader(f) : [];
    setColumns(header);
    setNumberColumn(header.find((c) => /phone|number|mobile/i.test(c)) ?? header[0] ?? '');
    setTzColumn(header.find((c) => /^(tz|time.?zone)$/i.test(c)) ?? '');
    // A column named like a media link is the first guess for every card's; the other values are chosen.
    const media = header.find((c) => /img|image|media|link|picture|photo|video/i.test(c));
    setMapped(
      media
        ? Object.fromEntries(
            templates.flatMap((t) =>
              templateSlots(t)
                .filter((s) => s.what === 'media')
                .map((s) => [`${t.id}:${s.key}`, media]),
            ),
          )
        : {},
    );
  };
  const key = (slot: TemplateValueSlot) => `${template.id}:${slot.key}`;
  // A value's error goes once it is edited; the next submit checks again.
  const edited = (k: string) => errors[k] && setErrors(({ [k]: _gone, ...others }) => others);

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!file) found.file = 'Choose a CSV file of recipients';
    else if (!numberColumn) found.number = 'Choose the column holding the numbers';
    if (file) {
      for (const slot of templateSlots(template)) {
        const k = key(slot);
        if (!mapped[k]) found[k] = `Choose the column of ${slot.label}, or one value for everyone`;
        else if (mapped[k] === FIXED && !fixed[k]?.trim()) found[k] = `${slot.label} is required`;
      }
    }
    if ((quietFrom === '') !== (quietTo === '')) found.quiet = 'Give both ends of the quiet hours, or neither';
    if (cap && !/^[1-9]\d{0,3}$/.test(cap)) found.cap = 'Frequency cap must be a whole number from 1 to 1000';
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = {
      name: name.trim(),
      templateId,
      sender,
      mapping: {
        number: numberColumn,
        ...(tzColumn && { timeZone: tzColumn }),
        ...templateParams(template, (slot) => (mapped[key(slot)] === FIXED ? { value: fixed[key(slot)]!.trim() } : mapped[key(slot)]!)),
      },
      schedule: quietFrom ? { quietHours: { from: quietFrom, to: quietTo } } : {},
      ...(cap && { frequencyCap: Number(cap) }),
    };
    const done = await action.run(async () => {
      const campaign = await api<CampaignView>('POST', base(bot), body);
      const audience = await api<CampaignAudienceView>('PUT', `${base(bot)}/${campaign.id}/audience/csv`, new Blob([file!], { type: 'text/csv' }));
      return { campaign, audience };
    });
    if (done) {
      setCreated(done);
      onCreated();
    }
  };

  if (created) return <AudienceReview bot={bot} campaign={created.campaign} audience={created.audience} />;
  const columnSelect = (id: string, label: string, value: string, set: (v: string) => void, error?: string, optional = false) => (
    <Field id={id} label={label} error={error}>
      {(a) => (
        <select {...a} value={value} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
          {optional && <option value="">(none: the campaign's time zone)</option>}
          {columns.map((c) => (
            <option value={c}>{c}</option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <form onSubmit={submit} noValidate aria-label="New campaign">
      <h2>New campaign</h2>
      <div class="grid">
        <InputField id="cp-name" label="Name" error={errors.name} value={name} onValue={setName} />
        <TemplateSelect id="cp-template" templates={templates} value={templateId} onValue={setTemplateId} />
        <SenderSelect id="cp-sender" senders={senders} value={sender} onValue={setSender} />
      </div>
      <Field id="cp-file" label="Recipients (CSV with a header row, up to 1,000,000 rows)" error={errors.file}>
        {(a) => <input {...a} type="file" accept=".csv,text/csv" onChange={(e) => void pick((e.target as HTMLInputElement).files?.[0] ?? null)} />}
      </Field>
      {columns.length > 0 && (
        <fieldset>
          <legend>Columns</legend>
          <div class="grid">
            {columnSelect('cp-number', 'Number column', numberColumn, setNumberColumn, errors.number)}
            {columnSelect('cp-tz', 'Time zone column', tzColumn, setTzColumn, undefined, true)}
          </div>
        </fieldset>
      )}
      {columns.length > 0 && (
        <fieldset>
          <legend>Template values</legend>
          <p class="muted">Each value of {template.name} comes from a column of the CSV, or is the same for every recipient.</p>
          <TemplateValueFields
            template={template}
            field={(slot) => (
              <ValueSource
                slot={slot}
                columns={columns}
                column={mapped[key(slot)] ?? ''}
                onColumn={(v) => {
                  setMapped((m) => ({ ...m, [key(slot)]: v }));
                  edited(key(slot));
                }}
                value={fixed[key(slot)] ?? ''}
                onValue={(v) => {
                  setFixed((f) => ({ ...f, [key(slot)]: v }));
                  edited(key(slot));
                }}
                error={errors[key(slot)]}
              />
            )}
          />
        </fieldset>
      )}
      <div class="grid">
        <InputField id="cp-quiet-from" label="Quiet hours from" type="time" error={errors.quiet} value={quietFrom} onValue={setQuietFrom} hint="Recipient's local time" />
        <InputField id="cp-quiet-to" label="Quiet hours to" type="time" value={quietTo} onValue={setQuietTo} />
        <InputField id="cp-cap" label="At most N campaign messages per user in 24 h" inputMode="numeric" error={errors.cap} value={cap} onValue={setCap} />
      </div>
      <SubmitButton action={action}>Create and upload</SubmitButton>
      <ErrorNotice error={action.error} />
    </form>
  );
}

/** The column picker's choice meaning "the same value for every recipient": no CSV header can be it, since headers are trimmed. */
const FIXED = ' fixed';

/** Where one template value comes from: a column of the CSV, or a value typed here for everyone. */
function ValueSource(p: { slot: TemplateValueSlot; columns: string[]; column: string; onColumn: (column: string) => void; value: string; onValue: (value: string) => void; error?: string }) {
  const id = slotId('cp', p.slot);
  return (
    <>
      <Field id={id} label={p.slot.label} hint={p.slot.hint} error={p.column === FIXED ? undefined : p.error}>
        {(a) => (
          <select {...a} value={p.column} onChange={(e) => p.onColumn((e.target as HTMLSelectElement).value)}>
            <option value="">(choose a column)</option>
            {p.columns.map((c) => (
              <option value={c}>column {c}</option>
            ))}
            <option value={FIXED}>the same for everyone…</option>
          </select>
        )}
      </Field>
      {p.column === FIXED && <InputField id={`${id}-value`} label={`${p.slot.label} for everyone`} error={p.error} value={p.value} onValue={p.onValue} />}
    </>
  );
}

/** What a preview row sends, in the form's order: the message body's values, then each card's media link, body values and button values. */
function sentValues(values: NonNullable<CampaignPreviewRow['values']>): string[] {
  const button = (b: unknown) => {
    const x = b as { payload?: string; text?: string };
    return x.payload ?? x.text ?? '';
  };
  return [
    ...(values.bodyParameters?.length ? [`Body: ${values.bodyParameters.join(', ')}`] : []),
    ...values.cards.map((c, i) => `Card ${i + 1}: ${[c.mediaLink, ...(c.bodyParameters ?? []), ...(c.buttons ?? []).map(button)].join(', ')}`),
  ];
}

function PreviewTable({ rows, caption, testId }: { rows: CampaignPreviewRow[]; caption: string; testId: string }) {
  return (
    <DataTable
      loading={false}
      spinner=""
      rows={rows}
      caption={caption}
      columns={['Row', 'Number', 'What is sent']}
      testId={testId}
      row={(r) => (
        <tr>
          <td>{r.row}</td>
          <td>{r.recipient ?? '—'}</td>
          <td class={r.error ? 'bad' : undefined}>
            {r.error ??
              (r.repeatOf === undefined ? (
                r.values && sentValues(r.values).map((line) => <div>{line}</div>)
              ) : (
                <span class="muted" data-testid="repeat">
                  repeats row {r.repeatOf}, not sent
                </span>
              ))}
          </td>
        </tr>
      )}
    />
  );
}

/**
 * A draft's audience (the upload's answer, or a reopened draft's: its preview read again with GET …/preview
 * and the counts the campaign kept; an audience uploaded before the file's row count and repeated numbers
 * were kept has neither) and its start.
 */
function AudienceReview({
  bot,
  campaign,
  audience,
  onStarted,
}: {
  bot: Bot;
  campaign: CampaignView;
  audience: Omit<CampaignAudienceView, 'rows' | 'duplicates'> & { rows?: number; duplicates?: number };
  onStarted?: () => void;
}) {
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [acknowledgeTierLimit, setAcknowledgeTierLimit] = useState(false);
  const action = useAction();
  // The check against the sender's messaging limit (Meta's tier), read again after a refused start (which reads the tier from Meta).
  const limit = useLoad(() => api<{ messagingLimit?: MessagingLimitCheckView }>('GET', `${base(bot)}/${campaign.id}/preview`), [bot.id, campaign.id]);
  const start = async () => {
    if (await action.run(() => api<CampaignView>('POST', `${base(bot)}/${campaign.id}/start`, { skipInvalid, acknowledgeTierLimit })))
      (onStarted ?? (() => go('bots', bot.id, 'campaigns', campaign.id)))();
    else void limit.reload(true);
  };
  const tier = limit.data?.messagingLimit;
  return (
    <section aria-label="Audience preview">
      <h2>{campaign.name}: audience</h2>
      <Success>
        <span data-testid="audience-counts">
          {[
            audience.rows === undefined ? '' : `${count(audience.rows, 'row')}: `,
            count(audience.valid, 'recipient'),
            `, ${count(audience.invalid, 'invalid row')}`,
            audience.duplicates === undefined ? '' : `, ${count(audience.duplicates, 'repeated number')}`,
          ].join('')}
        </span>
      </Success>
      <h3>First rows</h3>
      <PreviewTable rows={audience.preview} caption="First rows as they will be sent" testId="preview-rows" />
      {audience.errors.length > 0 && (
        <>
          <h3>Rows with errors</h3>
          <PreviewTable rows={audience.errors} caption="Rows with errors" testId="preview-errors" />
          <label>
            <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid((e.target as HTMLInputElement).checked)} /> Skip the {count(audience.invalid, 'invalid row')}
          </label>
        </>
      )}
      {tier?.warning && (
        <div class="notice warning" role="alert" data-testid="tier-warning">
          <div>
            <p>{tier.warning}</p>
            <label>
              <input type="checkbox" checked={acknowledgeTierLimit} onChange={(e) => setAcknowledgeTierLimit((e.target as HTMLInputElement).checked)} /> Start anyway, past the messaging limit
            </label>
          </div>
        </div>
      )}
      <button type="button" aria-busy={action.busy} disabled={action.busy} onClick={start}>
        Start campaign
      </button>
      {/* A start refused for the messaging limit says so in the warning above. */}
      <ErrorNotice error={tier?.warning && action.error?.message === tier.warning ? undefined : action.error} />
    </section>
  );
}

/** A draft opened from the list: its audience as uploaded, to start from here (a draft without a complete upload has nothing to start). */
function DraftReview({ bot, campaign, onStarted }: { bot: Bot; campaign: CampaignView; onStarted: () => void }) {
  const preview = useLoad(() => api<Pick<CampaignAudienceView, 'preview' | 'errors'>>('GET', `${base(bot)}/${campaign.id}/preview`), [bot.id, campaign.id]);
  if (!campaign.audience.ready) return <p>This draft has no complete audience yet: upload one through the API or the CLI (docs/campaigns.md), or create the campaign again here.</p>;
  if (preview.error) return <ErrorNotice error={preview.error} />;
  if (!preview.data) return <Spinner label="Loading the audience…" />;
  // The campaign's rows are those kept, repeated numbers already dropped; the file's row count and its repeats are what the upload read.
  const { rows, invalid, source, rowsRead, duplicates } = campaign.audience;
  return (
    <AudienceReview
      bot={bot}
      campaign={campaign}
      audience={{ ...preview.data, source: source ?? 'csv', invalid, valid: rows - invalid, rows: rowsRead ?? undefined, duplicates: duplicates ?? undefined }}
      onStarted={onStarted}
    />
  );
}

const STAGES = ['queued', 'sent', 'delivered', 'read', 'failed', 'replied'] as const;

/**
 * Admitted recipients whose message has neither gone nor failed yet. The ledger's `queued` counts every
 * admitted recipient and stays so once sent: shown as it is, it would call queued what the funnel has sent.
 * Admitted recipients of a cancelled campaign are cancelled only when their message never existed, so the
 * funnel's sent and failed are all of `queued` ones.
 */
const inFlight = (p: CampaignProgressView) => Math.max(0, p.recipients.queued - p.funnel.sent - p.funnel.failed);

/** Why pending recipients wait, when the campaign's state or schedule says: " (…)", or nothing. */
function waitingWhy(p: CampaignProgressView, c: CampaignView): string {
  if (p.recipients.pending === 0) return '';
  // A draft or paused campaign sends nothing: its quiet hours are not what holds anyone then.
  if (p.status === 'draft') return ' (not started)';
  if (p.status === 'paused') return ' (the campaign is paused)';
  const why: string[] = [];
  if (p.status === 'scheduled' && c.schedule.startAt) why.push(`until the start, ${when(c.schedule.startAt)}`);
  const quiet = c.schedule.quietHours;
  if (quiet && p.recipients.inQuietHours > 0)
    why.push(
      `${p.recipients.inQuietHours === p.recipients.pending ? 'all' : p.recipients.inQuietHours} in their quiet hours, ${quiet.from}–${quiet.to} ${c.mapping.timeZone ? `in each recipient's time zone (${c.schedule.timeZone} where the row gives none)` : c.schedule.timeZone}`,
    );
  return why.length ? ` (${why.join('; ')})` : '';
}

function CampaignDetail({ bot, id }: { bot: Bot; id: string }) {
  const campaign = useLoad(() => api<CampaignView>('GET', `${base(bot)}/${id}`), [bot.id, id]);
  const progress = useLoad(() => api<CampaignProgressView>('GET', `${base(bot)}/${id}/progress`), [bot.id, id]);
  const action = useAction();
  // A campaign completes once every recipient is admitted, with messages still on their way: read on until each has gone or failed.
  const live = progress.data && (!['completed', 'cancelled'].includes(progress.data.status) || inFlight(progress.data) > 0);
  useEffect(() => {
    if (!live) return undefined;
    const t = setInterval(() => void progress.reload(true), 2000);
    return () => clearInterval(t);
  }, [live, progress.reload]);
  if (campaign.error) return <ErrorNotice error={campaign.error} />;
  if (!campaign.data || !progress.data) return <Spinner label="Loading the campaign…" />;
  const c = campaign.data;
  const p = progress.data;
  const step = (verb: 'pause' | 'resume' | 'cancel') => async () => {
    if (verb === 'cancel' && !confirm(`Cancel ${c.name}? Recipients not yet sent to will not be.`)) return;
    if (await action.run(() => api<CampaignView>('POST', `${base(bot)}/${id}/${verb}`))) {
      void campaign.reload(true);
      void progress.reload(true);
    }
  };
  const top = Math.max(1, p.funnel.queued, p.recipients.total);
  const started = () => {
    void campaign.reload(true);
    void progress.reload(true);
  };
  return (
    <>
      <p>
        <a href={href('bots', bot.id, 'campaigns')}>← Campaigns</a>
      </p>
      <h1>{c.name}</h1>
      <p>
        Status: <strong data-testid="campaign-status">{p.status}</strong>.{' '}
        <span data-testid="campaign-recipients">
          {count(p.recipients.total - p.recipients.invalid, 'recipient')}: {p.recipients.pending} waiting{waitingWhy(p, c)}, {inFlight(p)} being sent, {p.funnel.sent} sent, {p.funnel.failed} failed,{' '}
          {p.recipients.capped} over the frequency cap, {p.recipients.cancelled} cancelled.{p.recipients.invalid > 0 && ` ${count(p.recipients.invalid, 'invalid row')}, not sent.`}
        </span>
      </p>
      <div class="grid">
        {(p.status === 'running' || p.status === 'scheduled') && (
          <button type="button" class="secondary" onClick={step('pause')} disabled={action.busy}>
            Pause
          </button>
        )}
        {p.status === 'paused' && (
          <button type="button" onClick={step('resume')} disabled={action.busy}>
            Resume
          </button>
        )}
        {!['completed', 'cancelled'].includes(p.status) && (
          <button type="button" class="secondary outline" onClick={step('cancel')} disabled={action.busy}>
            Cancel campaign
          </button>
        )}
      </div>
      <ErrorNotice error={action.error} />
      {p.status === 'draft' && <DraftReview bot={bot} campaign={c} onStarted={started} />}
      <h2>Funnel</h2>
      <table class="funnel" data-testid="campaign-funnel" aria-label="Funnel">
        <tbody>
          {STAGES.map((s) => (
            <tr>
              <th scope="row">{s}</th>
              <td>
                <span class="funnel-bar" style={{ width: `${(100 * p.funnel[s]) / top}%` }} aria-hidden="true" />
              </td>
              <td data-testid={`funnel-${s}`}>{p.funnel[s]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
