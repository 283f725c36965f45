import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import type { MessageContent, OutboundMessageType } from './message-content.js';
import { OptionalString, RequiredString } from '../common/string-fields.js';

export class QuickReplyDto {
  /** WhatsApp shows at most 20 characters on a reply button. */
  @RequiredString({ max: 20, refuse: 'blank' })
  title: string;

  @OptionalString({ max: 256, refuse: 'blank' })
  payload?: string;
}

export class ImageDto {
  @RequiredString({ httpUrl: true, max: 2048 })
  url: string;

  @OptionalString({ max: 1024 })
  caption?: string;
}

export class CarouselCardContentDto {
  @RequiredString({ max: 80, refuse: 'blank' })
  title: string;

  @OptionalString({ max: 160 })
  subtitle?: string;

  @OptionalString({ httpUrl: true, max: 2048 })
  imageUrl?: string;

  @IsOptional()
  @ArrayMaxSize(3, { message: '$property must contain at most 3 buttons' })
  @IsArray({ message: '$property must be an array' })
  @ValidateNested({ each: true })
  @Type(() => QuickReplyDto)
  buttons?: QuickReplyDto[];
}

/**
 * Body of POST /v1/bots/:botId/conversations/:id/messages: exactly one of `text` (optionally with up to
 * 3 `quickReplies`), `image` or `cards` (a carousel of 1-10 cards).
 */
export class SendConversationMessageDto {
  @OptionalString({ max: 4096, refuse: 'blank' })
  text?: string;

  @IsOptional()
  @ArrayMaxSize(3, { message: '$property must contain at most 3 quick replies' })
  @ArrayMinSize(1, { message: '$property must contain at least 1 quick reply' })
  @IsArray({ message: '$property must be an array' })
  @ValidateNested({ each: true })
  @Type(() => QuickReplyDto)
  quickReplies?: QuickReplyDto[];

  @IsOptional()
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => ImageDto)
  image?: ImageDto;

  @IsOptional()
  @ArrayMaxSize(10, { message: '$property must contain at most 10 cards' })
  @ArrayMinSize(1, { message: '$property must contain at least 1 card' })
  @IsArray({ message: '$property must be an array' })
  @ValidateNested({ each: true })
  @Type(() => CarouselCardContentDto)
  cards?: CarouselCardContentDto[];
}

/** The message's type and stored content, or the problem (a 400 message) when the fields do not combine. */
export function toOutboundContent(dto: SendConversationMessageDto): { type: OutboundMessageType; content: MessageContent } | string {
  const kinds = [dto.text !== undefined && 'text', dto.image !== undefined && 'image', dto.cards !== undefined && 'cards'].filter(Boolean);
  if (kinds.length !== 1) return 'exactly one of text, image or cards is required';
  if (dto.quickReplies && dto.text === undefined) return 'quickReplies go with text';
  const reply = (q: QuickReplyDto) => ({ title: q.title, payload: q.payload ?? q.title });
  if (dto.text !== undefined) {
    return { type: 'text', content: { text: dto.text, ...(dto.quickReplies ? { quickReplies: dto.quickReplies.map(reply) } : {}) } };
  }
  if (dto.image) {
    return { type: 'image', content: { image: { url: dto.image.url, ...(dto.image.caption ? { caption: dto.image.caption } : {}) } } };
  }
  const cards = dto.cards!.map((c) => ({
    title: c.title,
    ...(c.subtitle ? { subtitle: c.subtitle } : {}),
    ...(c.imageUrl ? { imageUrl: c.imageUrl } : {}),
    buttons: (c.buttons ?? []).map(reply),
  }));
  return { type: 'carousel', content: { cards } };
}

export interface SendConversationMessageResponse {
  message: string;
  status: 'success';
  messageId: string;
  /** queued (WhatsApp: the channel worker sends it) or sent (web chat: stored on the user's event stream). */
  deliveryStatus: string;
}
