import { Injectable, NotFoundException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { WebChatEnv } from '@platform/config';
import { type AttachmentContent, type ChatMessageView, isUuid } from '@platform/contracts';
import { ChatPageRepository, type SdkSession } from '@platform/database';
import { ConversationService } from '../conversations/conversation.service.js';
import { checkedType, safeFileName } from './file-type.js';

export const ATTACHMENTS_PATH = '/v1/chat-attachments';

/** What the page sends: the file's bytes, its declared type and name, and the page's id of the message. */
export interface Upload {
  contentType: string | undefined;
  fileName: string | undefined;
  bytes: Buffer;
  clientMessageId?: string;
}

/**
 * Pictures and files web-chat users send: checked (size, and a type the bytes bear out), stored, and
 * recorded as the user's message whose `attachment` the bot receives like any message (webhook call,
 * hosted bot input). Served back from an unguessable address with headers that keep it inert.
 */
@Injectable()
export class ChatAttachmentService {
  constructor(
    private readonly repository: ChatPageRepository,
    private readonly conversations: ConversationService,
    private readonly env: WebChatEnv,
  ) {}

  get maxBytes(): number {
    return this.env.CHAT_ATTACHMENT_MAX_BYTES;
  }

  /** `publicBase`: the API's public origin, for the address the bot gets. */
  async upload(session: Pick<SdkSession, 'botId' | 'userId'>, upload: Upload, publicBase: string): Promise<ChatMessageView> {
    if (upload.bytes.length === 0) throw new UnsupportedMediaTypeException('The file is empty');
    if (upload.bytes.length > this.maxBytes) throw new PayloadTooLargeException(tooLarge(this.maxBytes));
    const type = checkedType(upload.contentType, upload.bytes);
    if (!type) {
      throw new UnsupportedMediaTypeException(
        `Files of type ${upload.contentType ?? '(none)'} cannot be sent, or the file is not what its type says: send a PNG, JPEG, GIF or WebP picture, a PDF or a plain text file`,
      );
    }
    const conversation = await this.conversations.webConversation(session.botId, session.userId);
    const fileName = safeFileName(upload.fileName, type.startsWith('image/') ? 'picture' : 'file');
    const row = await this.repository.addAttachment({ botId: session.botId, conversationId: conversation.id, contentType: type, fileName, bytes: upload.bytes });
    const attachment: AttachmentContent = { url: `${publicBase}${ATTACHMENTS_PATH}/${row.id}`, mimeType: type, filename: fileName, size: row.size };
    const { view, seq } = await this.conversations.receive({
      botId: session.botId,
      channel: 'web',
      userId: session.userId,
      type: 'attachment',
      content: { attachment } as object,
      providerMessageId: upload.clientMessageId === undefined ? undefined : `web:${session.botId}:${session.userId}:${upload.clientMessageId}`,
      at: new Date(),
    });
    return { ...view, seq };
  }

  async file(id: string) {
    const row = isUuid(id) ? await this.repository.attachment(id) : null;
    if (!row) throw new NotFoundException('No such file');
    return row;
  }
}

/** The stored file an attachment's address names (its last segment), or null when the address is not one of ours. */
export function attachmentIdOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  const at = url.lastIndexOf(`${ATTACHMENTS_PATH}/`);
  const id = at < 0 ? '' : url.slice(at + ATTACHMENTS_PATH.length + 1);
  return isUuid(id) ? id : null;
}

export function tooLarge(max: number): string {
  return `The file is larger than the ${max >= 1024 * 1024 ? `${Math.round((max / 1024 / 1024) * 10) / 10} MB` : `${Math.round(max / 1024)} KB`} a chat file may be`;
}
