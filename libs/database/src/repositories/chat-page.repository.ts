import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** A bot's profile as the chat page shows it (the picture's bytes are read apart, by `avatar`). */
export interface BotProfileRow {
  botId: string;
  displayName: string | null;
  avatarUrl: string | null;
  avatarType: string | null;
  updatedAt: Date;
}

/** What changes in a profile: a field left undefined stays as it is; null clears it. */
export interface BotProfileChange {
  displayName?: string | null;
  avatarUrl?: string | null;
  avatar?: { type: string; bytes: Buffer } | null;
}

export interface ChatAttachmentRow {
  id: string;
  botId: string;
  conversationId: string;
  contentType: string;
  fileName: string;
  size: number;
  createdAt: Date;
}

const PROFILE = { botId: true, displayName: true, avatarUrl: true, avatarType: true, updatedAt: true } as const;
const ATTACHMENT = { id: true, botId: true, conversationId: true, contentType: true, fileName: true, size: true, createdAt: true } as const;

/** The chat page's stored data besides messages: each bot's profile, and the files users send. */
@Injectable()
export class ChatPageRepository {
  constructor(private readonly db: PrismaService) {}

  profile(botId: string): Promise<BotProfileRow | null> {
    return this.db.botProfile.findUnique({ where: { botId }, select: PROFILE });
  }

  /** Creates or updates the profile. An uploaded picture replaces an address and the other way round. */
  async setProfile(botId: string, change: BotProfileChange): Promise<BotProfileRow> {
    const data: { displayName?: string | null; avatarUrl?: string | null; avatarType?: string | null; avatarBytes?: Uint8Array<ArrayBuffer> | null } = {};
    if (change.displayName !== undefined) data.displayName = change.displayName;
    if (change.avatarUrl !== undefined) Object.assign(data, { avatarUrl: change.avatarUrl, avatarType: null, avatarBytes: null });
    if (change.avatar !== undefined)
      Object.assign(data, change.avatar ? { avatarUrl: null, avatarType: change.avatar.type, avatarBytes: new Uint8Array(change.avatar.bytes) } : { avatarType: null, avatarBytes: null });
    return this.db.botProfile.upsert({ where: { botId }, create: { botId, ...data }, update: data, select: PROFILE });
  }

  /** The uploaded picture, or null. */
  async avatar(botId: string): Promise<{ type: string; bytes: Buffer; updatedAt: Date } | null> {
    const row = await this.db.botProfile.findUnique({ where: { botId }, select: { avatarType: true, avatarBytes: true, updatedAt: true } });
    return row?.avatarType && row.avatarBytes ? { type: row.avatarType, bytes: Buffer.from(row.avatarBytes), updatedAt: row.updatedAt } : null;
  }

  addAttachment(row: Omit<ChatAttachmentRow, 'id' | 'createdAt' | 'size'> & { bytes: Buffer }): Promise<ChatAttachmentRow> {
    const { bytes, ...rest } = row;
    return this.db.chatAttachment.create({ data: { ...rest, size: bytes.length, bytes: new Uint8Array(bytes) }, select: ATTACHMENT });
  }

  async attachment(id: string): Promise<(ChatAttachmentRow & { bytes: Buffer }) | null> {
    const row = await this.db.chatAttachment.findUnique({ where: { id }, select: { ...ATTACHMENT, bytes: true } });
    return row ? { ...row, bytes: Buffer.from(row.bytes) } : null;
  }
}
