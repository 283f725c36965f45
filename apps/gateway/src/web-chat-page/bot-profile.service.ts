import { BadRequestException, Injectable } from '@nestjs/common';
import { type BotProfileChange, type BotProfileRow, ChatPageRepository } from '@platform/database';
import type { BotProfileDto } from './bot-profile.dto.js';
import { checkedType } from './file-type.js';

export const AVATAR_MAX_BYTES = 256 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bot's profile as the chat page reads it: a name (null: the page says "Chat") and a picture address. */
export interface BotProfileView {
  displayName: string | null;
  /** An https address, or the uploaded picture's path on this API (`/v1/bots/<id>/profile/avatar?v=…`). */
  avatarUrl: string | null;
}

/** The bot's display name and avatar, set with its API key and read by the chat page without one. */
@Injectable()
export class BotProfileService {
  constructor(private readonly repository: ChatPageRepository) {}

  async get(botId: string): Promise<BotProfileView> {
    return view(botId, await this.repository.profile(botId));
  }

  /** Checks every field first and answers all problems together (400), then stores the change. */
  async set(botId: string, dto: BotProfileDto): Promise<BotProfileView> {
    const problems: string[] = [];
    const change: BotProfileChange = {};
    if (dto.displayName !== undefined) {
      const name = dto.displayName === null ? null : dto.displayName.trim();
      if (name === '') problems.push('displayName must not be blank (null removes it)');
      // eslint-disable-next-line no-control-regex
      else if (name && /[\u0000-\u001f\u007f]/.test(name)) problems.push('displayName must not contain control characters');
      else change.displayName = name;
    }
    if (dto.avatarUrl !== undefined && dto.avatar !== undefined && dto.avatarUrl !== null && dto.avatar !== null) problems.push('send avatarUrl or avatar, not both');
    if (dto.avatarUrl !== undefined) {
      if (dto.avatarUrl === null) change.avatarUrl = null;
      else if (!isHttps(dto.avatarUrl)) problems.push('avatarUrl must be an https:// address');
      else change.avatarUrl = dto.avatarUrl;
    }
    if (dto.avatar !== undefined) {
      if (dto.avatar === null) change.avatar = null;
      else {
        const picture = decodeAvatar(dto.avatar.contentType, dto.avatar.data);
        if (typeof picture === 'string') problems.push(picture);
        else change.avatar = picture;
      }
    }
    if (problems.length > 0) throw new BadRequestException(problems.join('; '));
    return view(botId, await this.repository.setProfile(botId, change));
  }

  /** The uploaded picture, or null. */
  avatar(botId: string) {
    return this.repository.avatar(botId);
  }
}

function view(botId: string, row: BotProfileRow | null): BotProfileView {
  if (!row) return { displayName: null, avatarUrl: null };
  const uploaded = row.avatarType ? `/v1/bots/${botId}/profile/avatar?v=${row.updatedAt.getTime()}` : null;
  return { displayName: row.displayName, avatarUrl: row.avatarUrl ?? uploaded };
}

function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** The picture, or the problem with it. */
function decodeAvatar(contentType: unknown, data: unknown): { type: string; bytes: Buffer } | string {
  if (typeof contentType !== 'string' || typeof data !== 'string') return 'avatar must have contentType and data (base64) strings';
  if (!BASE64.test(data) || data.length === 0) return 'avatar.data must be base64';
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > AVATAR_MAX_BYTES) return `avatar must be at most ${AVATAR_MAX_BYTES / 1024} KB (it is ${Math.ceil(bytes.length / 1024)} KB)`;
  const type = checkedType(contentType, bytes);
  if (!type?.startsWith('image/')) return 'avatar must be a PNG, JPEG, GIF or WebP picture whose bytes match its contentType';
  return { type, bytes };
}
