import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { EDGE_VALIDATION, TriggerCarouselDto, formatValidationErrors, isCertainlyValidTrigger } from '@platform/contracts';

/** Bodies of hot routes checked by a written-out function first; whatever it doubts goes to class-validator. */
const FAST_CHECKS = new Map<unknown, (body: unknown) => boolean>([[TriggerCarouselDto, isCertainlyValidTrigger]]);

class PlatformValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const fast = metadata.type === 'body' ? FAST_CHECKS.get(metadata.metatype) : undefined;
    if (fast?.(value)) return Promise.resolve(value);
    return super.transform(value, metadata);
  }
}

/** DTO validation at the edge: unknown fields refused, one message per bad field, naming its path. */
export function createValidationPipe(): ValidationPipe {
  return new PlatformValidationPipe({
    transform: true,
    ...EDGE_VALIDATION,
    exceptionFactory: (errors) => {
      const messages = formatValidationErrors(errors).filter(Boolean);
      return new BadRequestException(messages.length ? messages.join('; ') : 'Request body must be a JSON object');
    },
  });
}
