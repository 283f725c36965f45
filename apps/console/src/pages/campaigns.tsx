import { useEffect, useState } from 'preact/hooks';
import type { CampaignAudienceView, CampaignPreviewRow, CampaignProgressView, CampaignView, MessagingLimitCheckView, SenderView, TemplateView } from '@platform/contracts/views';
import { Bot, api, roleAtLeast } from '../api.js';
import { go, href } from '../router.js';
import { DataTable } from '../data-table.js';
import { Field, InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, NotAllowed, Spinner, Success, useAction, useLoad, when } from '../ui.js';

/** Campaigns (docs/campaigns.md): the list and a new campaign from a CSV, or one campaign's live progress. */
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
      <NewCampaign bot={bot} />
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

function NewCampaign({ bot }: { bot: Bot }) {
  const senders = useLoad(() => api<{ senders: SenderView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/senders`), [bot.id]);
  const templates = useLoad(() => api<{ templates: TemplateView[] }>('GET', `/v1/bots/${bot.id}/whatsapp/templates`), [bot.id]);
  const approved = templates.data?.templates.filter((t) => t.status === 'APPROVED') ?? [];
  if (senders.error || templates.error) return <ErrorNotice error={senders.error ?? templates.error} />;
  if (!senders.data || !templates.data) return <Spinner label="Loading senders and templates…" />;
  if (approved.length === 0 || senders.data.senders.length === 0) return <p>A campaign needs a sender number and an approved carousel template (WhatsApp → Senders, Templates).</p>;
  return <NewCampaignForm bot={bot} templates={approved} senders={senders.data.senders} />;
}

function NewCampaignForm({ bot, templates, senders }: { bot: Bot; templates: TemplateView[]; senders: SenderView[] }) {
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState(templates[0]!.id);
  const [sender, setSender] = useState(senders[0]!.number);
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [numberColumn, setNumberColumn] = useState('');
  const [tzColumn, setTzColumn] = useState('');
  const [media, setMedia] = useState<string[]>([]);
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
    setMedia(Array.from({ length: template.cardCount }, () => header.find((c) => /img|image|media|link/i.test(c)) ?? ''));
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!file) found.file = 'Choose a CSV file of recipients';
    else if (!numberColumn) found.number = 'Choose the column holding the numbers';
    for (let i = 0; i < template.cardCount; i++) if (file && !media[i]) found[`media${i}`] = `Choose the column of card ${i + 1}'s media link`;
    if ((quietFrom === '') !== (quietTo === '')) found.quiet = 'Give both ends of the quiet hours, or neither';
    if (cap && !/^[1-9]\d{0,3}$/.test(cap)) found.cap = 'Frequency cap must be a whole number from 1 to 1000';
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = {
      name: name.trim(),
      templateId,
      sender,
      mapping: { number: numberColumn, ...(tzColumn && { timeZone: tzColumn }), cards: media.slice(0, template.cardCount).map((mediaLink) => ({ mediaLink })) },
      schedule: quietFrom ? { quietHours: { from: quietFrom, to: quietTo } } : {},
      ...(cap && { frequencyCap: Number(cap) }),
    };
    const done = await action.run(async () => {
      const campaign = await api<CampaignView>('POST', base(bot), body);
      const audience = await api<CampaignAudienceView>('PUT', `${base(bot)}/${campaign.id}/audience/csv`, new Blob([file!], { type: 'text/csv' }));
      return { campaign, audience };
    });
    if (done) setCreated(done);
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
        <Field id="cp-template" label="Template">
          {(a) => (
            <select {...a} value={templateId} onChange={(e) => setTemplateId((e.target as HTMLSelectElement).value)}>
              {templates.map((t) => (
                <option value={t.id}>
                  {t.name} ({t.cardCount} cards)
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="cp-sender" label="Sender">
          {(a) => (
            <select {...a} value={sender} onChange={(e) => setSender((e.target as HTMLSelectElement).value)}>
              {senders.map((s) => (
                <option value={s.number}>{s.number}</option>
              ))}
            </select>
          )}
        </Field>
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
          {Array.from({ length: template.cardCount }, (_, i) =>
            columnSelect(`cp-media-${i}`, `Card ${i + 1} media link column`, media[i] ?? '', (v) => setMedia(Object.assign([...media], { [i]: v })), errors[`media${i}`]),
          )}
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
          <td class={r.error ? 'bad' : undefined}>{r.error ?? r.values?.cards.map((c) => c.mediaLink).join(', ')}</td>
        </tr>
      )}
    />
  );
}

function AudienceReview({ bot, campaign, audience }: { bot: Bot; campaign: CampaignView; audience: CampaignAudienceView }) {
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [acknowledgeTierLimit, setAcknowledgeTierLimit] = useState(false);
  const action = useAction();
  // The check against the sender's messaging limit (Meta's tier), read again after a refused start (which reads the tier from Meta).
  const limit = useLoad(() => api<{ messagingLimit?: MessagingLimitCheckView }>('GET', `${base(bot)}/${campaign.id}/preview`), [bot.id, campaign.id]);
  const start = async () => {
    if (await action.run(() => api<CampaignView>('POST', `${base(bot)}/${campaign.id}/start`, { skipInvalid, acknowledgeTierLimit }))) go('bots', bot.id, 'campaigns', campaign.id);
    else void limit.reload(true);
  };
  const tier = limit.data?.messagingLimit;
  return (
    <section aria-label="Audience preview">
      <h2>{campaign.name}: audience</h2>
      <Success>
        <span data-testid="audience-counts">
          {audience.rows} rows: {audience.valid} recipients, {audience.invalid} invalid, {audience.duplicates} repeated numbers
        </span>
      </Success>
      <h3>First rows</h3>
      <PreviewTable rows={audience.preview} caption="First rows as they will be sent" testId="preview-rows" />
      {audience.errors.length > 0 && (
        <>
          <h3>Rows with errors</h3>
          <PreviewTable rows={audience.errors} caption="Rows with errors" testId="preview-errors" />
          <label>
            <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid((e.target as HTMLInputElement).checked)} /> Skip the {audience.invalid} invalid rows
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

const STAGES = ['queued', 'sent', 'delivered', 'read', 'failed', 'replied'] as const;

function CampaignDetail({ bot, id }: { bot: Bot; id: string }) {
  const campaign = useLoad(() => api<CampaignView>('GET', `${base(bot)}/${id}`), [bot.id, id]);
  const progress = useLoad(() => api<CampaignProgressView>('GET', `${base(bot)}/${id}/progress`), [bot.id, id]);
  const action = useAction();
  const live = progress.data && !['completed', 'cancelled'].includes(progress.data.status);
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
  return (
    <>
      <p>
        <a href={href('bots', bot.id, 'campaigns')}>← Campaigns</a>
      </p>
      <h1>{c.name}</h1>
      <p>
        Status: <strong data-testid="campaign-status">{p.status}</strong>. {p.recipients.total} recipients: {p.recipients.pending} waiting, {p.recipients.queued} queued, {p.recipients.capped} over the
        frequency cap, {p.recipients.invalid} invalid, {p.recipients.cancelled} cancelled.
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
