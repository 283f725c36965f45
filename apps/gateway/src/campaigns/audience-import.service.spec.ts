import 'reflect-metadata';
import { Readable } from 'node:stream';
import type { CampaignRepository, CampaignRow, CarouselCatalog, StagedBatch } from '@platform/database';
import { AudienceImportService } from './audience-import.service.js';
import type { TimeZones } from './time-zones.js';

const campaign = {
  id: '6a1c2c9e-2222-4222-8222-222222222222',
  botId: '6a1c2c9e-1111-4111-8111-111111111111',
  templateId: '6a1c2c9e-3333-4333-8333-333333333333',
  status: 'draft',
  mapping: { number: 'phone', bodyParameters: ['note'], cards: [{ mediaLink: 'img' }] },
} as unknown as CampaignRow;

interface Staged {
  n: number;
  r: string;
  v: unknown;
  e: string | null;
}

/** The service with faked repositories; `batches` holds each staged batch's JSON text as the statement would get it, `memory` the bytes' ArrayBuffers. */
function setup() {
  const batches: string[] = [];
  const memory = new Set<ArrayBufferLike>();
  const campaigns = {
    beginUpload: async () => 'upload-1',
    stage: async (_c: string, _b: string, _u: string, batch: StagedBatch) => {
      const bytes = batch.take();
      memory.add(bytes.buffer);
      const json = bytes.toString('utf8');
      batches.push(json);
      return (JSON.parse(json) as unknown[]).length;
    },
    finishUpload: async () => true,
  } as unknown as CampaignRepository;
  const catalog = { template: async () => ({ bodyParameterCount: 1, cards: [{ bodyParameterCount: 0, buttons: [] }] }) } as unknown as CarouselCatalog;
  const timeZones = { checker: async () => () => true } as unknown as TimeZones;
  return { service: new AudienceImportService(campaigns, catalog, timeZones), batches, memory, staged: () => batches.flatMap((b) => JSON.parse(b) as Staged[]) };
}

function csv(rows: number, note: string): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i === 0) this.push('phone,note,img\n');
      if (i >= rows) return void this.push(null);
      let chunk = '';
      for (const end = Math.min(i + 100, rows); i < end; i++) chunk += `+91${7_000_000_000 + i},${note},https://cdn.example/p/${i}.jpg\n`;
      this.push(chunk);
    },
  });
}

describe('AudienceImportService', () => {
  it("stages 1,000 rows a statement, every row once and in order, their text in one buffer kept for the whole upload (not a string per batch on V8's heap)", async () => {
    const { service, batches, memory, staged } = setup();
    const view = await service.fromCsv(campaign, csv(2_500, 'hi'));
    expect(view).toMatchObject({ source: 'csv', rows: 2_500, valid: 2_500, invalid: 0, duplicates: 0 });
    expect(view.preview).toHaveLength(20);
    expect(batches.map((b) => (JSON.parse(b) as unknown[]).length)).toEqual([1_000, 1_000, 500]);
    expect(memory.size).toBe(1);
    const rows = staged();
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 2_500 }, (_, i) => i + 1));
    expect(rows[0]).toEqual({ n: 1, r: '917000000000', m: expect.any(String), z: null, v: { bodyParameters: ['hi'], cards: [{ mediaLink: 'https://cdn.example/p/0.jpg' }] }, e: null });
  });

  it('writes a batch of long rows once its text passes 512 KiB, so the buffer stays about that size', async () => {
    const { service, batches, staged } = setup();
    // 1,000-character values: 1,000 rows of them would be over 1 MB of text in one batch.
    await service.fromCsv(campaign, csv(1_500, 'é'.repeat(1000)));
    expect(batches.length).toBeGreaterThan(2);
    expect(Math.max(...batches.map((b) => Buffer.byteLength(b)))).toBeLessThan(512 * 1024 + 4 * 1024);
    expect(staged().map((r) => r.n)).toEqual(Array.from({ length: 1_500 }, (_, i) => i + 1));
  });

  it("stages an invalid row's error as well-formed text when its quoted cell was cut through a surrogate pair (Postgres' JSON parser refuses half a pair)", async () => {
    const { service, staged } = setup();
    // The error quotes the number's first 40 characters: the 40th is the first half of 😀.
    const phone = `${'a'.repeat(39)}😀`;
    const view = await service.fromList(campaign, [{ phone, note: 'n', img: 'https://cdn.example/a.jpg' }]);
    expect(view).toMatchObject({ rows: 1, invalid: 1 });
    const [row] = staged();
    expect(row.e).toContain(`"${'a'.repeat(39)}\ufffd" is not a number`);
  });

  it('marks a previewed row whose number an earlier valid row has with that row: the ledger keeps only the first', async () => {
    const { service } = setup();
    const row = (phone: string, img = 'https://cdn.example/a.jpg') => ({ phone, note: 'n', img });
    const view = await service.fromList(campaign, [row('+919800000001'), row('+919800000002', 'javascript:alert(1)'), row('+919800000002'), row('+919800000001')]);
    expect(view.preview.map((r) => [r.row, r.repeatOf])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, undefined],
      [4, 1],
    ]);
  });
});
