import 'reflect-metadata';
import type { MessageLogFilter, MessageLogRepository, MessageRepository } from '@platform/database';
import { MessageLogService, csvField } from './message-log.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';

function message(i: number) {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    createdAt: new Date(Date.UTC(2026, 11, 16, 10, 0, 0, 0) - i * 1000),
    status: i % 2 ? 'failed' : 'read',
    recipient: '15550001111',
    sender: { number: '15550009999' },
    template: { providerName: 'promo' },
    attempts: 1,
    providerMessageId: null,
    lastErrorCode: i % 2 ? '131026' : null,
    lastErrorText: i % 2 ? 'Message undeliverable, "unreachable"' : null,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
  };
}

describe('MessageLogService CSV export', () => {
  it('streams every matching message page by page (keyset), quoting what needs it', async () => {
    const all = Array.from({ length: 2500 }, (_, i) => message(i));
    const pages: MessageLogFilter[] = [];
    const repo = {
      list: async (_b: string, f: MessageLogFilter) => {
        pages.push(f);
        const from = f.before ? all.findIndex((m) => m.id === f.before!.id) + 1 : 0;
        return all.slice(from, from + f.limit);
      },
    } as unknown as MessageLogRepository;
    const service = new MessageLogService(repo, {} as MessageRepository);
    let csv = '';
    for await (const chunk of service.exportCsv(BOT, { status: 'failed' })) csv += chunk;
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('msg_id,created_at,status,recipient,sender,template,attempts,provider_message_id,error_code,error_text,sent_at,delivered_at,read_at');
    expect(lines).toHaveLength(2501);
    expect(lines[2]).toContain(',"Message undeliverable, ""unreachable""",');
    expect(pages.map((p) => p.limit)).toEqual([1000, 1000, 1000]);
    expect(pages[0]).toMatchObject({ status: 'failed' });
  });

  it('neutralises spreadsheet formulas but keeps phone numbers', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+15550001111')).toBe('+15550001111');
    expect(csvField(null)).toBe('');
  });
});
