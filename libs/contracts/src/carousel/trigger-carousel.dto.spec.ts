import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { formatValidationErrors } from '../common/validation-errors.js';
import { PHONE_NUMBER, TriggerCarouselDto } from './trigger-carousel.dto.js';

function errorsOf(body: unknown): string[] {
  const dto = plainToInstance(TriggerCarouselDto, body);
  return formatValidationErrors(validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true }));
}

const valid = () => ({
  userDetails: { number: '+919876543210' },
  notification: {
    templateId: 't1',
    type: 'whatsapp',
    sender: '15550001111',
    params: { cards: [{ media: { mediaLink: 'https://a/1.jpg' } }, { media: { mediaLink: 'http://a/2.jpg' } }] },
  },
});

describe('TriggerCarouselDto', () => {
  it('accepts a valid body', () => {
    expect(errorsOf(valid())).toEqual([]);
  });

  it('names the full path of a bad nested field', () => {
    const body = valid();
    body.notification.params.cards[1].media.mediaLink = 'javascript:alert(1)';
    expect(errorsOf(body)).toEqual(['notification.params.cards[1].media.mediaLink must be an http(s) URL']);
  });

  it('reports every bad field once', () => {
    const body: any = valid();
    delete body.userDetails.number;
    body.notification.type = 'sms';
    expect(errorsOf(body)).toEqual(['userDetails.number is required', 'notification.type must be one of: whatsapp']);
  });

  it('refuses more than 10 cards', () => {
    const body = valid();
    body.notification.params.cards = Array.from({ length: 11 }, () => ({ media: { mediaLink: 'https://a/1.jpg' } }));
    expect(errorsOf(body)).toEqual(['notification.params.cards must contain at most 10 cards']);
  });

  it.each([
    ['+919876543210', true],
    ['919876543210', true],
    ['12345678', true],
    ['123456789012345', true],
    ['1234567', false],
    ['1234567890123456', false],
    ['+0123456789', false],
    ['+91 98765 43210', false],
    ['', false],
  ])('phone number %s valid=%s', (n, ok) => {
    expect(PHONE_NUMBER.test(n)).toBe(ok);
  });
});
