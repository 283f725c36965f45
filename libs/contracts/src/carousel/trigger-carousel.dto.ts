import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { OptionalString, RequiredString } from '../common/string-fields.js';
import { MAX_VALIDITY_SECONDS, MIN_VALIDITY_SECONDS } from './validity.js';

export const SUPPORTED_CHANNELS = ['whatsapp'] as const;
export type ChannelName = (typeof SUPPORTED_CHANNELS)[number];

/** Digits with country code, 8–15 digits (E.164), optional leading '+'. */
export const PHONE_NUMBER = /^\+?[1-9][0-9]{7,14}$/;
const PHONE_MESSAGE = '$property must be a mobile number with country code: 8-15 digits, optional leading +';

/**
 * Validation order: class-validator runs a property's decorators bottom-up and the pipe stops at the
 * first failure, so the basic type check sits closest to the property.
 */
export class CardMediaDto {
  @RequiredString({ httpUrl: true, max: 2048 })
  mediaLink: string;
}

/** Refuses the property when `other` is given too (the two are alternatives). */
function NotWith(other: string) {
  return ValidateBy({
    name: 'notWith',
    validator: {
      validate: (_value, args) => (args?.object as Record<string, unknown>)[other] === undefined,
      defaultMessage: () => `$property and ${other} cannot both be given`,
    },
  });
}

/** A card button's value: the payload of a quick-reply button, or the dynamic suffix of a URL button (one of them). */
export class CardButtonDto {
  @ValidateIf((b: CardButtonDto) => b.urlSuffix === undefined || b.payload !== undefined)
  @NotWith('urlSuffix')
  @IsDefined({ message: '$property is required (a quick-reply payload) unless urlSuffix is given (a URL button)' })
  @MaxLength(256, { message: '$property must be at most 256 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  payload?: string;

  @ValidateIf((b: CardButtonDto) => b.urlSuffix !== undefined)
  @MaxLength(2000, { message: '$property must be at most 2000 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  urlSuffix?: string;
}

/** The card fields the platform reads; a card's other fields are ignored (dropped before validation). */
export const CARD_FIELDS: readonly string[] = ['media', 'bodyParameters', 'buttons'];

function withoutUnusedCardFields(cards: unknown): unknown {
  if (!Array.isArray(cards)) return cards;
  for (const card of cards) {
    if (card === null || typeof card !== 'object') continue;
    for (const key of Object.keys(card)) if (!CARD_FIELDS.includes(key)) delete (card as Record<string, unknown>)[key];
  }
  return cards;
}

export class CarouselCardDto {
  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => CardMediaDto)
  media: CardMediaDto;

  /** Values for the card body's {{n}} placeholders, in order (optional). */
  @IsOptional()
  @IsString({ each: true, message: '$property must be an array of strings' })
  @ArrayMaxSize(20)
  @IsArray({ message: '$property must be an array of strings' })
  bodyParameters?: string[];

  /** Values of the card's buttons that take one (quick replies, URLs with a dynamic suffix), in the template's order. */
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => CardButtonDto)
  @ArrayMaxSize(10, { message: '$property must contain at most 10 buttons' })
  @IsArray({ message: '$property must be an array' })
  buttons?: CardButtonDto[];
}

export class CarouselParamsDto {
  @IsDefined({ message: '$property is required' })
  @ArrayMaxSize(10, { message: '$property must contain at most 10 cards' })
  @ArrayMinSize(1, { message: '$property must contain at least 1 card' })
  @IsArray({ message: '$property must be an array' })
  @ValidateNested({ each: true })
  // Runs after @Type has made the cards: fields a card carries for other systems are dropped, not refused.
  @Transform(({ value }) => withoutUnusedCardFields(value), { toClassOnly: true })
  @Type(() => CarouselCardDto)
  cards: CarouselCardDto[];

  /** Values for the {{n}} placeholders of the message body above the cards, in order (optional). */
  @IsOptional()
  @IsString({ each: true, message: '$property must be an array of strings' })
  @ArrayMaxSize(20)
  @IsArray({ message: '$property must be an array of strings' })
  bodyParameters?: string[];
}

export class CarouselNotificationDto {
  @RequiredString({ refuse: 'empty' })
  templateId: string;

  @IsDefined({ message: '$property is required' })
  @IsIn(SUPPORTED_CHANNELS, { message: `$property must be one of: ${SUPPORTED_CHANNELS.join(', ')}` })
  @IsString({ message: '$property must be a string' })
  type: ChannelName;

  @RequiredString({ pattern: { regex: PHONE_NUMBER, message: PHONE_MESSAGE } })
  sender: string;

  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => CarouselParamsDto)
  params: CarouselParamsDto;
}

export class UserDetailsDto {
  @RequiredString({ pattern: { regex: PHONE_NUMBER, message: PHONE_MESSAGE } })
  number: string;
}

/** Largest config.customPayload, as serialized JSON (bytes of UTF-8). */
export const MAX_CUSTOM_PAYLOAD_BYTES = 4096;

@ValidatorConstraint({ name: 'customPayloadSize' })
class CustomPayloadSize implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    const json = JSON.stringify(value);
    return json !== undefined && Buffer.byteLength(json, 'utf8') <= MAX_CUSTOM_PAYLOAD_BYTES;
  }
  defaultMessage(): string {
    return `$property must be JSON of at most ${MAX_CUSTOM_PAYLOAD_BYTES} bytes serialized`;
  }
}

/** Per-trigger delivery settings: where status changes are POSTed, what is echoed with them, and how long sending may be retried. */
export class TriggerConfigDto {
  /** Overrides the bot's postback URL for this message (the address is checked: public hosts only). */
  @OptionalString({ max: 2048 })
  postbackUrl?: string;

  /** Any JSON value, echoed in every postback and lifecycle event of this message. */
  @IsOptional()
  @Validate(CustomPayloadSize)
  customPayload?: unknown;

  /** Seconds after acceptance during which transient failures are retried; past them the message fails as `expired`. */
  @IsOptional()
  @Max(MAX_VALIDITY_SECONDS, { message: `$property must be at most ${MAX_VALIDITY_SECONDS} (24 hours)` })
  @Min(MIN_VALIDITY_SECONDS, { message: `$property must be at least ${MIN_VALIDITY_SECONDS}` })
  @IsInt({ message: '$property must be a whole number of seconds' })
  validitySeconds?: number;
}

/** Body of POST /api/engagements/notifications/v2/push (spec: carousel template trigger request). */
export class TriggerCarouselDto {
  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => UserDetailsDto)
  userDetails: UserDetailsDto;

  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => CarouselNotificationDto)
  notification: CarouselNotificationDto;

  @IsOptional()
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => TriggerConfigDto)
  config?: TriggerConfigDto;
}

export interface TriggerCarouselResponse {
  message: string;
  status: 'success';
  msgId: string;
}
