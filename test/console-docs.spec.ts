import { readFileSync } from 'node:fs';

/** docs/console.md's Pages table: one row per page, so that a page's features, routes and role are read in one place. */
describe('the Pages table of docs/console.md', () => {
  const doc = readFileSync('docs/console.md', 'utf8');
  const table = /## Pages\n\n(\|[^\n]*\n)+/.exec(doc)![0];
  const pages = table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Page |'))
    .map((line) => line.split(' | ')[0]!.slice(2).trim());

  it('names each page once', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((page, i) => pages.indexOf(page) !== i)).toEqual([]);
  });

  it('has the Messages, Message and WhatsApp → Senders rows with what the pages do now', () => {
    const row = (page: string) => table.split('\n').find((line) => line.startsWith(`| ${page} |`))!;
    expect(row('Messages')).toMatch(/Export CSV.*GET …\/messages\/export\.csv/);
    expect(row('Message')).toMatch(/\*\*timeline\*\*.*…\/:msgId\/attempts/);
    expect(row('WhatsApp → Senders')).toMatch(/\*\*Sends\*\*.*\*\*Delete\*\*.*PATCH\/DELETE …\/senders\/:senderId/);
  });
});
