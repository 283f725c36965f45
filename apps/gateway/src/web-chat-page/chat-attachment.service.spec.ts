import { PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { WebChatEnv } from '@platform/config';
import type { InboundMessage } from '@platform/database';
import type { ChatPageRepository } from '@platform/database';
import type { ConversationService } from '../conversations/conversation.service.js';
import { ChatAttachmentService } from './chat-attachment.service.js';

const session = { botId: 'b1', userId: 'u1' };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7]);

function setup(max = 1024) {
  const stored: Array<{ contentType: string; fileName: string; bytes: Buffer }> = [];
  const received: InboundMessage[] = [];
  const repository = {
    addAttachment: async (row: { contentType: string; fileName: string; bytes: Buffer }) => (stored.push(row), { ...row, id: 'f-1', size: row.bytes.length }),
  } as unknown as ChatPageRepository;
  const conversations = {
    webConversation: async () => ({ id: 'c1' }),
    receive: async (m: InboundMessage) => (received.push(m), { view: { id: 'm1', conversationId: 'c1', content: m.content }, created: true }),
  } as unknown as ConversationService;
  const service = new ChatAttachmentService(repository, conversations, { CHAT_ATTACHMENT_MAX_BYTES: max } as WebChatEnv);
  return { service, stored, received };
}

describe('ChatAttachmentService', () => {
  it("stores a checked picture and records the user's message with its address, type, name and size for the bot", async () => {
    const { service, stored, received } = setup();
    await service.upload(session, { contentType: 'image/png', fileName: '../cat.png', bytes: PNG, clientMessageId: 'client-123' }, 'https://api.example.com');
    expect(stored).toEqual([expect.objectContaining({ contentType: 'image/png', fileName: 'cat.png', bytes: PNG })]);
    expect(received).toEqual([
      expect.objectContaining({
        botId: 'b1',
        channel: 'web',
        userId: 'u1',
        type: 'attachment',
        content: { attachment: { url: 'https://api.example.com/v1/chat-attachments/f-1', mimeType: 'image/png', filename: 'cat.png', size: PNG.length } },
        providerMessageId: 'web:b1:u1:client-123',
      }),
    ]);
  });

  it('refuses a file over the limit (413) and a type not allowed or not borne out by the bytes (415), storing nothing', async () => {
    const { service, stored, received } = setup(16);
    await expect(service.upload(session, { contentType: 'image/png', fileName: 'a.png', bytes: Buffer.concat([PNG, Buffer.alloc(16)]) }, '')).rejects.toBeInstanceOf(PayloadTooLargeException);
    await expect(service.upload(session, { contentType: 'text/html', fileName: 'a.html', bytes: Buffer.from('<p>') }, '')).rejects.toBeInstanceOf(UnsupportedMediaTypeException);
    await expect(service.upload(session, { contentType: 'image/png', fileName: 'a.png', bytes: Buffer.from('<script>') }, '')).rejects.toThrow('PNG, JPEG, GIF or WebP');
    await expect(service.upload(session, { contentType: 'text/plain', fileName: 'a.txt', bytes: Buffer.alloc(0) }, '')).rejects.toThrow('empty');
    expect(stored).toEqual([]);
    expect(received).toEqual([]);
  });
});
