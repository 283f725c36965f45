import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { PrismaService } from '@platform/database';
import { seedBotAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, signIn } from './console-browser.js';
import { SdkBot, seedSdkBot, startSession } from './sdk-support.js';

/** A PDF as the upload checks it (its %PDF- header), named in more than ASCII. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PDF_NAME = 'Relevé de março.pdf';
/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

jest.setTimeout(180_000);

describe('console inbox: a file a web-chat user sent opens from the transcript, for members of the bot only (API and Chromium)', () => {
  const stack = useStack();
  const browser = new ConsoleBrowser();
  stack.defer(() => browser.close());
  let bot: SdkBot;
  let other: SdkBot;

  /** The chat page's upload: a session of `token`'s user, then the file's bytes. */
  async function upload(b: SdkBot, token: string, name: string, type: string, bytes: Buffer): Promise<{ messageId: string; conversationId: string }> {
    const { sessionId } = await startSession(stack.url, b.botId, token);
    const res = await fetch(`${stack.url}/v1/bots/${b.botId}/sessions/${sessionId}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'x-file-name': encodeURIComponent(name) },
      body: bytes,
    });
    if (res.status !== 202) throw new Error(`the upload answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { messageId: string; conversationId: string };
  }
  const fileOf = (botId: string, conversationId: string, messageId: string, token?: string) =>
    fetch(`${stack.url}/v1/bots/${botId}/inbox/conversations/${conversationId}/messages/${messageId}/file`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const db = () => stack.gateway.get(PrismaService, { strict: false });
  /** A message stored as a channel stores it (for the cases no upload makes: WhatsApp media, a forged address). */
  async function storeMessage(conversationId: string, content: object): Promise<string> {
    const { rows } = await db().pool.query<{ id: string }>(
      `INSERT INTO "conversation_messages" ("id", "conversation_id", "direction", "type", "content", "created_at")
       VALUES (gen_random_uuid(), $1::uuid, 'inbound', $2, $3::jsonb, now()) RETURNING "id"`,
      [conversationId, 'media' in content ? 'media' : 'attachment', JSON.stringify(content)],
    );
    return rows[0]!.id;
  }
  async function whatsappConversation(botId: string, userId: string): Promise<string> {
    const { rows } = await db().pool.query<{ id: string }>(
      `INSERT INTO "conversations" ("id", "bot_id", "channel", "user_id", "updated_at") VALUES (gen_random_uuid(), $1::uuid, 'whatsapp', $2, now()) RETURNING "id"`,
      [botId, userId],
    );
    return rows[0]!.id;
  }

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway);
    other = await seedSdkBot(stack.gateway);
    await browser.launch();
  });

  it("GET …/messages/:messageId/file: the bytes with their type and name for a member (200); 401 without a token, 403 for another bot's member, 404 for another conversation's or bot's file, a message without one and WhatsApp media", async () => {
    const viewer = await seedBotAdmin(stack.gateway, bot.botId, 'viewer');
    const stranger = await seedBotAdmin(stack.gateway, other.botId, 'admin');
    const pdf = await upload(bot, 'files_api_user', PDF_NAME, 'application/pdf', PDF);
    const png = await upload(bot, 'files_api_user', 'dot.png', 'image/png', PNG);
    const theirs = await upload(other, 'files_other_user', 'theirs.txt', 'text/plain', Buffer.from('not yours\n'));

    const got = await fileOf(bot.botId, pdf.conversationId, pdf.messageId, viewer.accessToken);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(PDF)).toBe(true);
    expect(Object.fromEntries(['content-type', 'x-content-type-options', 'content-security-policy', 'cache-control'].map((h) => [h, got.headers.get(h)]))).toEqual({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
    });
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="Relev_ de mar_o.pdf"; filename*=UTF-8''${encodeURIComponent(PDF_NAME)}`);
    const picture = await fileOf(bot.botId, png.conversationId, png.messageId, viewer.accessToken);
    expect([picture.status, picture.headers.get('content-type'), picture.headers.get('content-disposition')]).toEqual([200, 'image/png', expect.stringMatching(/^inline; filename="dot.png"/)]);
    expect(Buffer.from(await picture.arrayBuffer()).equals(PNG)).toBe(true);

    // No token 401; a member of another bot 403, as every inbox route.
    expect((await fileOf(bot.botId, pdf.conversationId, pdf.messageId)).status).toBe(401);
    expect((await fileOf(bot.botId, pdf.conversationId, pdf.messageId, stranger.accessToken)).status).toBe(403);
    // Another bot's file through this bot's routes: its conversation is not this bot's, nor its message this conversation's.
    expect((await fileOf(bot.botId, theirs.conversationId, theirs.messageId, viewer.accessToken)).status).toBe(404);
    expect((await fileOf(bot.botId, pdf.conversationId, theirs.messageId, viewer.accessToken)).status).toBe(404);
    expect((await fileOf(other.botId, pdf.conversationId, pdf.messageId, stranger.accessToken)).status).toBe(404);
    // A message whose address names another bot's file (a forged content) does not open it.
    const theirFile = (await db().chatAttachment.findFirstOrThrow({ where: { botId: other.botId } })).id;
    const forged = await storeMessage(pdf.conversationId, { attachment: { url: `${stack.url}/v1/chat-attachments/${theirFile}`, mimeType: 'text/plain', filename: 'theirs.txt', size: 10 } });
    const refused = await fileOf(bot.botId, pdf.conversationId, forged, viewer.accessToken);
    expect([refused.status, ((await refused.json()) as { message: string }).message]).toEqual([404, `Message ${forged} has no file stored by the platform`]);
    // Malformed and unknown ids, a message without a file.
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) expect((await fileOf(bot.botId, pdf.conversationId, id, viewer.accessToken)).status).toBe(404);
    const text = await storeMessage(pdf.conversationId, { text: 'just words' });
    expect((await fileOf(bot.botId, pdf.conversationId, text, viewer.accessToken)).status).toBe(404);
    // WhatsApp media: Meta keeps it, the platform has only its id.
    const wa = await whatsappConversation(bot.botId, '15550001234');
    const media = await storeMessage(wa, { media: { kind: 'document', id: '1234567890', mimeType: 'application/pdf', filename: 'contract.pdf' } });
    const kept = await fileOf(bot.botId, wa, media, viewer.accessToken);
    expect([kept.status, ((await kept.json()) as { message: string }).message]).toEqual([404, 'This WhatsApp file is kept by Meta, not by the platform: it cannot be opened from the console']);

    // The OpenAPI document describes it.
    const doc = (await (await fetch(`${stack.url}/docs/openapi.json`)).json()) as { paths: Record<string, { get?: { summary?: string } }> };
    expect(doc.paths['/v1/bots/{botId}/inbox/conversations/{id}/messages/{messageId}/file']?.get?.summary).toMatch(/file a web-chat user sent/);
  });

  it('Chromium: the transcript offers Download for a web-chat file (by keyboard: the file, its name and bytes); WhatsApp media says why it cannot be opened; axe at 390 and 1280 px', async () => {
    const viewer = await seedBotAdmin(stack.gateway, bot.botId, 'viewer');
    const pdf = await upload(bot, 'files_browser_user', PDF_NAME, 'application/pdf', PDF);
    const wa = await whatsappConversation(bot.botId, '15550004321');
    await storeMessage(wa, { media: { kind: 'document', id: '987654321', mimeType: 'application/pdf', filename: 'contract.pdf', caption: 'signed' }, text: 'signed' });
    const { context, page } = await browser.newPage(stack.url, DESKTOP);
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page, stack.url, viewer);
      await page.goto(`${stack.url}/console/#/bots/${bot.botId}/inbox/${pdf.conversationId}`);
      const transcript = page.getByTestId('transcript');
      await transcript.getByText(`PDF document: ${PDF_NAME} (${PDF.length} B)`).waitFor();
      const button = transcript.getByRole('button', { name: `Download ${PDF_NAME}` });
      await button.focus();
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      expect(download.suggestedFilename()).toBe(PDF_NAME);
      expect(readFileSync((await download.path())!).equals(PDF)).toBe(true);
      await screenshots(page, 'inbox-file');
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
      }

      await page.goto(`${stack.url}/console/#/bots/${bot.botId}/inbox/${wa}`);
      await transcript.getByText('Document: contract.pdf, caption: signed').waitFor();
      await transcript.getByText("Kept by WhatsApp: the platform stores only Meta's reference to it, so it cannot be opened here.").waitFor();
      expect(await transcript.getByRole('button').count()).toBe(0);
      await screenshots(page, 'inbox-whatsapp-media');
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
      }
      expect(browser.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
