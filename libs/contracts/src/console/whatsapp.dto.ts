import { OmitType, PartialType } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PHONE_NUMBER } from '../carousel/trigger-carousel.dto.js';
import { SENDER_THROUGHPUT } from '../whatsapp/sender-throughput.js';
import { OptionalString, RequiredString } from '../common/string-fields.js';

const PHONE_NUMBER_ID = /^\d{1,32}$/;
const WABA_ID = /^\d{1,32}$/;
const WABA_MESSAGE = '$property must be the numeric WhatsApp Business Account id';

/** Body of POST /v1/bots/:botId/whatsapp/senders. The access token is write-only: no answer contains it. */
export class CreateSenderDto {
  @RequiredString({ pattern: { regex: PHONE_NUMBER, message: '$property must be a number with country code: 8-15 digits, optional leading +' } })
  number: string;

  @RequiredString({ pattern: { regex: PHONE_NUMBER_ID, message: '$property must be the numeric phone-number id of the WhatsApp Cloud API' } })
  phoneNumberId: string;

  @RequiredString({ max: 1024, refuse: 'empty' })
  accessToken: string;

  /** The WhatsApp Business Account that owns the number: where the bot's templates are synced from. */
  @OptionalString({ pattern: { regex: WABA_ID, message: WABA_MESSAGE } })
  wabaId?: string;
  /** Messages per second sent through this number, all workers together (default 80). */
  @IsOptional()
  @Max(SENDER_THROUGHPUT.max, { message: `$property must be an integer from ${SENDER_THROUGHPUT.min} to ${SENDER_THROUGHPUT.max} (messages per second)` })
  @Min(SENDER_THROUGHPUT.min, { message: `$property must be an integer from ${SENDER_THROUGHPUT.min} to ${SENDER_THROUGHPUT.max} (messages per second)` })
  @IsInt({ message: `$property must be an integer from ${SENDER_THROUGHPUT.min} to ${SENDER_THROUGHPUT.max} (messages per second)` })
  throughput?: number;
}

/** Body of PATCH /v1/bots/:botId/whatsapp/senders/:senderId: what is given changes, with the create rules; the number cannot change. */
export class UpdateSenderDto extends PartialType(OmitType(CreateSenderDto, ['number'] as const)) {}
