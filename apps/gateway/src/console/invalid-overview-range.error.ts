import { BadRequestException } from '@nestjs/common';

/** A range the overview cannot answer: not a calendar day, `from` after `to`, or longer than allowed. */
export class InvalidOverviewRangeError extends BadRequestException {}
