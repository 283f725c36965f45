import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import { CampaignAudienceView, CampaignPreviewRow, TemplateCardSpec, campaignMessageId } from '@platform/contracts';
import { CampaignRepository, CampaignRow, CarouselCatalog, StagedBatch, StagedRecipient } from '@platform/database';
import { MappedRow, RowMapper, mappedColumns } from './row-mapper.js';
import { TimeZones } from './time-zones.js';

/** Largest audience a campaign takes. */
export const MAX_AUDIENCE_ROWS = 1_000_000;
/** Largest audience of one JSON request: larger ones come as CSV. */
export const MAX_LIST_ROWS = 10_000;
/** Rows staged per statement at most (fewer when their text is long: StagedBatch.full); users read per page of a segment. */
const BATCH = 1000;
/** Rows of the preview, and rows with errors shown. */
const PREVIEW_ROWS = 20;

/**
 * Brings an audience into a draft campaign: CSV streamed row by row (the parser pauses the request
 * while a batch is written, so a million rows are never held), a list, or a segment of the bot's
 * WhatsApp users. Each upload is staged under an id of its own and becomes the audience only once it
 * completed: one cut short (a gateway restart mid-upload, a malformed file) leaves a campaign that
 * cannot start until an upload completes, and no partial audience is ever sent.
 */
@Injectable()
export class AudienceImportService {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly catalog: CarouselCatalog,
    private readonly timeZones: TimeZones,
  ) {}

  async fromCsv(c: CampaignRow, body: Readable): Promise<CampaignAudienceView> {
    const columnsNeeded = mappedColumns(c.mapping);
    // The parser is made once the upload is begun: an error it meets (a bad header) then has the loop reading it.
    const rows = () => {
      const parser = body.pipe(
        parse({
          bom: true,
          trim: true,
          skip_empty_lines: true,
          relax_column_count: true,
          max_record_size: 64 * 1024,
          columns: (header: string[]) => {
            const missing = columnsNeeded.filter((col) => !header.includes(col));
            if (missing.length) throw new BadRequestException(`the CSV header has no column ${missing.join(', ')} (the mapping names it); header: ${header.slice(0, 30).join(', ')}`);
            return header;
          },
        }),
      );
      body.on('error', (err) => parser.destroy(err));
      return parser as AsyncIterable<Record<string, unknown>>;
    };
    return this.stage(c, 'csv', rows, (err) => {
      if (err instanceof BadRequestException) return err;
      const code = (err as { code?: string }).code;
      if (code?.startsWith('CSV_')) return new BadRequestException(`the CSV cannot be read: ${(err as Error).message}`);
      return undefined;
    });
  }

  async fromList(c: CampaignRow, rows: Array<Record<string, unknown>>): Promise<CampaignAudienceView> {
    if (rows.length > MAX_LIST_ROWS) throw new BadRequestException(`rows must have at most ${MAX_LIST_ROWS} entries; upload larger audiences as CSV`);
    const bad = rows.findIndex((r) => typeof r !== 'object' || r === null || Array.isArray(r));
    if (bad >= 0) throw new BadRequestException(`rows[${bad}] must be an object (column → value)`);
    return this.stage(c, 'list', () => rows);
  }

  async fromSegment(c: CampaignRow, segment: { activeWithinDays?: number }): Promise<CampaignAudienceView> {
    const days = segment.activeWithinDays;
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3650)) throw new BadRequestException('segment.activeWithinDays must be an integer from 1 to 3650');
    if (c.mapping.number !== 'number') throw new BadRequestException('a segment has columns number and lastInboundAt: mapping.number must be "number"');
    const since = days === undefined ? null : new Date(Date.now() - days * 86_400_000);
    const campaigns = this.campaigns;
    async function* users() {
      let after = '';
      for (;;) {
        const page = await campaigns.whatsappUsers(c.botId, since, after, BATCH);
        for (const u of page) yield { number: `+${u.userId}`, lastInboundAt: u.lastInboundAt?.toISOString() ?? '' };
        if (page.length < BATCH) return;
        after = page[page.length - 1].userId;
      }
    }
    return this.stage(c, days === undefined ? 'segment' : `segment:${days}d`, users);
  }

  private async stage(
    c: CampaignRow,
    source: string,
    rows: () => AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>,
    asHttp?: (err: unknown) => Error | undefined,
  ): Promise<CampaignAudienceView> {
    const mapper = await this.mapper(c);
    const uploadId = await this.campaigns.beginUpload(c.id);
    if (!uploadId) throw new ConflictException(`campaign is ${c.status}; only a draft's audience can be replaced`);
    const view: CampaignAudienceView = { source, rows: 0, valid: 0, invalid: 0, duplicates: 0, preview: [], errors: [] };
    // Each row is copied into the batch's buffer as JSON once mapped, and its objects die (StagedBatch says
    // why); the loop awaits each batch's write before reading on, so the request stream is paused meanwhile
    // and one batch is in flight at most.
    const batch = new StagedBatch();
    // The previewed rows' numbers (valid rows only: an invalid row keeps no number) and their first row: a
    // repeat in the preview is marked, as the ledger will refuse it. The preview is the first rows, so the
    // row a previewed repeat repeats is among them.
    const firstRowOf = new Map<string, number>();
    const flush = async () => {
      const count = batch.length;
      const inserted = await this.campaigns.stage(c.id, c.botId, uploadId, batch);
      if (inserted === null) throw new ConflictException('a newer upload replaced this one');
      view.duplicates += count - inserted;
    };
    try {
      for await (const record of rows()) {
        const rowNo = ++view.rows;
        if (rowNo > MAX_AUDIENCE_ROWS) throw new BadRequestException(`the audience has more than ${MAX_AUDIENCE_ROWS} rows`);
        const mapped = mapper.map(record);
        if (mapped.ok) view.valid++;
        else view.invalid++;
        // Preview objects only for the rows shown: the rest would be garbage of every row.
        if (view.preview.length < PREVIEW_ROWS) {
          const shown = previewRow(rowNo, mapped);
          if (mapped.ok) {
            const first = firstRowOf.get(mapped.recipient);
            if (first === undefined) firstRowOf.set(mapped.recipient, rowNo);
            else shown.repeatOf = first;
          }
          view.preview.push(shown);
        }
        if (!mapped.ok && view.errors.length < PREVIEW_ROWS) view.errors.push(previewRow(rowNo, mapped));
        batch.add(staged(c.id, rowNo, mapped));
        if (batch.full(BATCH)) await flush();
      }
      await flush();
    } catch (err) {
      throw asHttp?.(err) ?? err;
    }
    if (view.rows === 0) throw new BadRequestException('the audience has no rows');
    if (!(await this.campaigns.finishUpload(c.id, uploadId, source, { rows: view.rows, duplicates: view.duplicates }))) throw new ConflictException('a newer upload replaced this one');
    // Repeated numbers were refused by the ledger's key (invalid rows have keys of their own): they are not recipients.
    view.valid -= view.duplicates;
    return view;
  }

  private async mapper(c: CampaignRow): Promise<RowMapper> {
    const template = await this.catalog.template(c.templateId);
    if (!template) throw new ConflictException('the campaign template no longer exists');
    return new RowMapper(c.mapping, { bodyParameterCount: template.bodyParameterCount, cards: template.cards as TemplateCardSpec[] | null }, await this.timeZones.checker());
  }
}

function staged(campaignId: string, rowNo: number, m: MappedRow): StagedRecipient {
  const recipient = m.recipient ?? `row:${rowNo}`;
  // An invalid row of a good number is kept under a key of its own: the number may come valid further down.
  const key = m.ok ? recipient : `row:${rowNo}`;
  return {
    rowNo,
    recipient: key,
    messageId: campaignMessageId(campaignId, key),
    timeZone: m.ok ? m.timeZone : null,
    values: m.ok ? m.values : null,
    error: m.ok ? null : m.error,
  };
}

function previewRow(row: number, m: MappedRow): CampaignPreviewRow {
  return m.ok ? { row, recipient: m.recipient, timeZone: m.timeZone, values: m.values } : { row, recipient: m.recipient, error: m.error };
}
