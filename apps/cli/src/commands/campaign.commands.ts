import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { CampaignAudienceView, CampaignPreviewRow, CampaignProgressView, CampaignView, MessagingLimitCheckView } from '@platform/contracts';
import { CliCommand, CommandArgs, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

/**
 * Campaign commands go through the gateway's HTTP API with the bot's API key (the same checks, the
 * same streamed CSV upload as any integration): `--url` or PLATFORM_URL, the key in PLATFORM_API_KEY
 * (or `--api-key`, which a shell history keeps).
 */
const connection = {
  bot: { description: 'Bot id', required: true },
  url: { description: 'Gateway base URL (default: PLATFORM_URL, else http://localhost:3000)' },
  'api-key': { description: "The bot's API key (default: PLATFORM_API_KEY)" },
};
const one = { ...connection, campaign: { description: 'Campaign id', required: true } };

async function api<T>(args: CommandArgs, method: string, path: string, body?: unknown, csv?: string): Promise<T> {
  const base = (typeof args.url === 'string' ? args.url : (process.env.PLATFORM_URL ?? 'http://localhost:3000')).replace(/\/$/, '');
  const key = typeof args['api-key'] === 'string' ? args['api-key'] : process.env.PLATFORM_API_KEY;
  if (!key) throw new UsageError('an API key is required: set PLATFORM_API_KEY (or --api-key)');
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (csv) {
    headers['content-type'] = 'text/csv';
    init.body = Readable.toWeb(createReadStream(csv)) as ReadableStream;
    init.duplex = 'half';
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`${base}/v1/bots/${requireString(args, 'bot')}/campaigns${path}`, init);
  const answer = (await res.json().catch(() => ({}))) as T & { message?: string; details?: { messagingLimit?: unknown } };
  // A start past the messaging limit: the API's advice names its JSON field; here it is an option.
  const hint = answer.details?.messagingLimit ? ' (CLI: campaign start --acknowledge-tier-limit)' : '';
  if (!res.ok) throw new UsageError(`${res.status}: ${answer.message ?? res.statusText}${hint}`);
  return answer;
}

function jsonArg(args: CommandArgs, name: string): unknown {
  const raw = requireString(args, name);
  const text = raw.startsWith('@') ? readFileSync(raw.slice(1), 'utf8') : raw;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--${name} must be JSON (or @file holding JSON)`);
  }
}

function numberArg(args: CommandArgs, name: string): number | undefined {
  if (args[name] === undefined) return undefined;
  const n = Number(args[name]);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number`);
  return n;
}

/** The check against the sender's messaging limit (Meta's tier), as the preview and a start answer it. */
function printMessagingLimit(m: MessagingLimitCheckView | undefined, out: (line: string) => void): void {
  if (!m) return;
  out(
    `messaging limit: ${m.tier ?? 'unknown (not read from Meta yet)'}${m.limit === null ? '' : ` (${m.limit} users in 24 h)`}; messaged in the last 24 h ${m.messagedLast24h}, this campaign in the next 24 h ${m.campaignNext24h}`,
  );
  if (m.warning) out(`warning: ${m.warning}`);
}

function printCampaign(c: CampaignView, out: (line: string) => void): void {
  out(`${c.id}  ${c.status}  ${c.name}`);
  const a = c.audience;
  // What the upload read, as its answer counted it (null for an audience uploaded before the counts were kept).
  const read = a.rowsRead === null ? '' : `; its upload read ${count(a.rowsRead, 'row')}, ${count(a.duplicates ?? 0, 'repeated number')} not kept`;
  out(`  audience: ${a.ready ? `${a.rows} rows (${a.invalid} invalid) from ${a.source}${read}` : 'none complete'}`);
  const quiet = c.schedule.quietHours ? `, quiet ${c.schedule.quietHours.from}-${c.schedule.quietHours.to}` : '';
  out(`  schedule: ${c.schedule.startAt ?? 'at start'} (${c.schedule.timeZone}${quiet}); cap ${c.frequencyCap ?? 'none'}${c.transactional ? ', transactional' : ''}; share ${c.sendShare}`);
}

function printRows(title: string, rows: CampaignPreviewRow[], out: (line: string) => void): void {
  if (rows.length === 0) return;
  out(title);
  for (const r of rows) out(`  row ${r.row}  ${r.recipient ?? '-'}  ${r.error ?? JSON.stringify(r.values)}`);
}

function printAudience(a: CampaignAudienceView, out: (line: string) => void): void {
  out(`${count(a.rows, 'row')}: ${count(a.valid, 'recipient')}, ${count(a.invalid, 'invalid row')}, ${count(a.duplicates, 'repeated number')}`);
  printRows('first rows:', a.preview.slice(0, 5), out);
  printRows('rows with errors:', a.errors, out);
}

export const campaignCommands: CliCommand[] = [
  {
    name: 'campaign create',
    summary: 'Create a draft campaign of a synced carousel template (docs/campaigns.md)',
    options: {
      ...connection,
      name: { description: 'Campaign name', required: true },
      template: { description: 'Carousel template id', required: true },
      sender: { description: 'Sender number (+ optional)', required: true },
      mapping: { description: 'Column mapping as JSON, or @file', required: true },
      'start-at': { description: 'Start time (ISO 8601); default: at start' },
      'time-zone': { description: 'Time zone of recipients without one (IANA, default UTC)' },
      'quiet-hours': { description: 'HH:MM-HH:MM in the recipient time zone, e.g. 21:00-08:00' },
      'frequency-cap': { description: 'At most N campaign messages per user in 24 h' },
      transactional: { description: 'Not held back by (nor counted for) the frequency cap', boolean: true },
      'send-share': { description: "Share of the sender's throughput (0.05-0.9, default 0.8)" },
    },
    async run(_app, args, out) {
      const quiet = typeof args['quiet-hours'] === 'string' ? /^(\d\d:\d\d)-(\d\d:\d\d)$/.exec(args['quiet-hours']) : null;
      if (args['quiet-hours'] !== undefined && !quiet) throw new UsageError('--quiet-hours must be HH:MM-HH:MM');
      const schedule = {
        ...(typeof args['start-at'] === 'string' && { startAt: args['start-at'] }),
        ...(typeof args['time-zone'] === 'string' && { timeZone: args['time-zone'] }),
        ...(quiet && { quietHours: { from: quiet[1], to: quiet[2] } }),
      };
      const c = await api<CampaignView>(args, 'POST', '', {
        name: requireString(args, 'name'),
        templateId: requireString(args, 'template'),
        sender: requireString(args, 'sender'),
        mapping: jsonArg(args, 'mapping'),
        schedule,
        ...(args['frequency-cap'] !== undefined && { frequencyCap: numberArg(args, 'frequency-cap') }),
        ...(args.transactional === true && { transactional: true }),
        ...(args['send-share'] !== undefined && { sendShare: numberArg(args, 'send-share') }),
      });
      printCampaign(c, out);
    },
  },
  {
    name: 'campaign audience',
    summary: "Give a draft its audience: a CSV file (streamed, up to 1,000,000 rows) or a segment of the bot's WhatsApp users",
    options: {
      ...one,
      csv: { description: 'CSV file with a header row' },
      segment: { description: "The bot's recorded WhatsApp users (columns number, lastInboundAt)", boolean: true },
      'active-within-days': { description: 'With --segment: users who wrote within this many days' },
    },
    async run(_app, args, out) {
      const id = requireString(args, 'campaign');
      if ((typeof args.csv === 'string') === (args.segment === true)) throw new UsageError('give one of --csv <file> or --segment');
      if (typeof args.csv === 'string' && !existsSync(args.csv)) throw new UsageError(`--csv: no file ${args.csv}`);
      const days = numberArg(args, 'active-within-days');
      const a =
        typeof args.csv === 'string'
          ? await api<CampaignAudienceView>(args, 'PUT', `/${id}/audience/csv`, undefined, args.csv)
          : await api<CampaignAudienceView>(args, 'PUT', `/${id}/audience`, { segment: days === undefined ? {} : { activeWithinDays: days } });
      printAudience(a, out);
    },
  },
  {
    name: 'campaign preview',
    summary: 'The first rows of the audience as they will be sent, and the first rows with errors',
    options: one,
    async run(_app, args, out) {
      const p = await api<Pick<CampaignAudienceView, 'preview' | 'errors'> & { messagingLimit?: MessagingLimitCheckView }>(args, 'GET', `/${requireString(args, 'campaign')}/preview`);
      printRows('first rows:', p.preview, out);
      printRows('rows with errors:', p.errors, out);
      if (p.errors.length === 0) out('no rows with errors');
      printMessagingLimit(p.messagingLimit, out);
    },
  },
  ...(['start', 'pause', 'resume', 'cancel'] as const).map((verb): CliCommand => ({
    name: `campaign ${verb}`,
    summary: { start: 'Start a draft (scheduled until its start time)', pause: 'Pause a campaign', resume: 'Resume a paused campaign', cancel: 'Cancel a campaign (final)' }[verb],
    options:
      verb === 'start'
        ? {
            ...one,
            'skip-invalid': { description: 'Start although some rows are invalid (they are skipped)', boolean: true },
            'acknowledge-tier-limit': { description: "Start although the sender's 24-hour messaging limit (Meta's tier) would be passed", boolean: true },
          }
        : one,
    async run(_app, args, out) {
      const body = verb === 'start' ? { skipInvalid: args['skip-invalid'] === true, acknowledgeTierLimit: args['acknowledge-tier-limit'] === true } : undefined;
      const c = await api<CampaignView & { messagingLimit?: MessagingLimitCheckView }>(args, 'POST', `/${requireString(args, 'campaign')}/${verb}`, body);
      printCampaign(c, out);
      printMessagingLimit(c.messagingLimit, out);
    },
  })),
  {
    name: 'campaign show',
    summary: "A campaign, its audience's counts (and what its upload read) and its live progress: recipients by state and the funnel",
    options: one,
    async run(_app, args, out) {
      const id = requireString(args, 'campaign');
      const [c, p] = await Promise.all([api<CampaignView>(args, 'GET', `/${id}`), api<CampaignProgressView>(args, 'GET', `/${id}/progress`)]);
      printCampaign(c, out);
      const r = p.recipients;
      out(`  recipients: ${r.total} (pending ${r.pending}, queued ${r.queued}, capped ${r.capped}, invalid ${r.invalid}, cancelled ${r.cancelled})`);
      const f = p.funnel;
      out(`  funnel: queued ${f.queued}, sent ${f.sent}, delivered ${f.delivered}, read ${f.read}, failed ${f.failed}, replied ${f.replied}`);
    },
  },
  {
    name: 'campaign list',
    summary: "The bot's campaigns, newest first",
    options: connection,
    async run(_app, args, out) {
      const { campaigns } = await api<{ campaigns: CampaignView[] }>(args, 'GET', '');
      if (campaigns.length === 0) out('no campaigns');
      for (const c of campaigns) out(`${c.id}  ${c.status.padEnd(9)}  ${c.audience.ready ? c.audience.rows - c.audience.invalid : 0} recipients  ${c.name}`);
    },
  },
];

/** `1 row`, `2 rows`, `0 rows`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
