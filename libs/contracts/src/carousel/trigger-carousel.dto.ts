import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

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
  @IsDefined({ message: '$property is required' })
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: '$property must be an http(s) URL' })
  @MaxLength(2048, { message: '$property must be at most 2048 characters' })
  @IsString({ message: '$property must be a string' })
  mediaLink: string;
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
}

export class CarouselParamsDto {
  @IsDefined({ message: '$property is required' })
  @ArrayMaxSize(10, { message: '$property must contain at most 10 cards' })
  @ArrayMinSize(1, { message: '$property must contain at least 1 card' })
  @IsArray({ message: '$property must be an array' })
  @ValidateNested({ each: true })
  @Type(() => CarouselCardDto)
  cards: CarouselCardDto[];
}

export class CarouselNotificationDto {
  @IsDefined({ message: '$property is required' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  templateId: string;

  @IsDefined({ message: '$property is required' })
  @IsIn(SUPPORTED_CHANNELS, { message: `$property must be one of: ${SUPPORTED_CHANNELS.join(', ')}` })
  @IsString({ message: '$property must be a string' })
  type: ChannelName;

  @IsDefined({ message: '$property is required' })
  @Matches(PHONE_NUMBER, { message: PHONE_MESSAGE })
  @IsString({ message: '$property must be a string' })
  sender: string;

  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => CarouselParamsDto)
  params: CarouselParamsDto;
}

export class UserDetailsDto {
  @IsDefined({ message: '$property is required' })
  @Matches(PHONE_NUMBER, { message: PHONE_MESSAGE })
  @IsString({ message: '$property must be a string' })
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

/** Per-trigger delivery reporting: where status changes are POSTed, and what is echoed with them. */
export class TriggerConfigDto {
  /** Overrides the bot's postback URL for this message (the address is checked: public hosts only). */
  @IsOptional()
  @MaxLength(2048, { message: '$property must be at most 2048 characters' })
  @IsString({ message: '$property must be a string' })
  postbackUrl?: string;

  /** Any JSON value, echoed in every postback and lifecycle event of this message. */
  @IsOptional()
  @Validate(CustomPayloadSize)
  customPayload?: unknown;
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
