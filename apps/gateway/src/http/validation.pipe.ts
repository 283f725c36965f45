import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { formatValidationErrors } from '@platform/contracts';

/** DTO validation at the edge: unknown fields refused, one message per bad field, naming its path. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const messages = formatValidationErrors(errors).filter(Boolean);
      return new BadRequestException(messages.length ? messages.join('; ') : 'Request body must be a JSON object');
    },
  });
}
