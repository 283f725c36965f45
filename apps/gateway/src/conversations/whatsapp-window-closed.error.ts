import { UnprocessableEntityException } from '@nestjs/common';

/** A free-form WhatsApp message asked for after the 24-hour customer-service window closed. */
export class WhatsAppWindowClosedError extends UnprocessableEntityException {
  constructor(lastInboundAt: Date | null) {
    super(
      lastInboundAt
        ? `The user last wrote at ${lastInboundAt.toISOString()}, more than 24 hours ago: WhatsApp accepts only a template message now (use the carousel trigger)`
        : 'The user has not written to this bot on WhatsApp: WhatsApp accepts only a template message (use the carousel trigger)',
    );
  }
}
