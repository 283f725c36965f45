import 'reflect-metadata';
import { validateAtEdge } from '../common/validation-errors.js';
import { PHONE_NUMBER, TriggerCarouselDto } from './trigger-carousel.dto.js';
import { triggerBody } from './trigger-carousel.spec-support.js';

const errorsOf = (body: unknown) => validateAtEdge(TriggerCarouselDto, body).errors;

const valid = () => triggerBody({ cards: [{ media: { mediaLink: 'https://a/1.jpg' } }, { media: { mediaLink: 'http://a/2.jpg' } }] });

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

  it('ignores card fields the platform does not read, and drops them', () => {
    const body: any = valid();
    body.notification.params.cards[0].title = 'Summer sale';
    body.notification.params.cards[1].meta = { a: 1 };
    const { dto, errors } = validateAtEdge(TriggerCarouselDto, body);
    expect(errors).toEqual([]);
    expect(dto.notification.params.cards[0]).not.toHaveProperty('title');
    expect(dto.notification.params.cards[1]).not.toHaveProperty('meta');
  });

  it('still refuses unknown fields outside cards', () => {
    const body: any = valid();
    body.notification.params.cards[0].media.alt = 'x';
    expect(errorsOf(body)).toEqual(['property notification.params.cards[0].media.alt should not exist']);
  });

  it('accepts buttons with a payload or a URL suffix, and message body parameters', () => {
    const body: any = valid();
    body.notification.params.bodyParameters = ['Ana'];
    body.notification.params.cards[0].buttons = [{ payload: 'more-1' }, { urlSuffix: 'item/1' }];
    expect(errorsOf(body)).toEqual([]);
  });

  it.each([
    [{}, 'notification.params.cards[0].buttons[0].payload is required (a quick-reply payload) unless urlSuffix is given (a URL button)'],
    [{ payload: 'p', urlSuffix: 's' }, 'notification.params.cards[0].buttons[0].payload and urlSuffix cannot both be given'],
    [{ payload: '' }, 'notification.params.cards[0].buttons[0].payload must not be empty'],
    [{ urlSuffix: 5 }, 'notification.params.cards[0].buttons[0].urlSuffix must be a string'],
    [{ payload: 'p', label: 'x' }, 'property notification.params.cards[0].buttons[0].label should not exist'],
  ])('names the bad button field of %j', (button, message) => {
    const body: any = valid();
    body.notification.params.cards[0].buttons = [button];
    expect(errorsOf(body)).toEqual([message]);
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

  it('takes config.validitySeconds from 60 to 86400 whole seconds, and names it when it is out of range or not whole', () => {
    const withValidity = (validitySeconds: unknown) => errorsOf({ ...valid(), config: { validitySeconds } });
    expect(withValidity(60)).toEqual([]);
    expect(withValidity(86_400)).toEqual([]);
    expect(withValidity(86_401)).toEqual(['config.validitySeconds must be at most 86400 (24 hours)']);
    expect(withValidity(59)).toEqual(['config.validitySeconds must be at least 60']);
    expect(withValidity(90.5)).toEqual(['config.validitySeconds must be a whole number of seconds']);
    expect(withValidity('3600')).toEqual(['config.validitySeconds must be a whole number of seconds']);
  });
});
