import { isURL } from 'class-validator';
import { PHONE_NUMBER, SUPPORTED_CHANNELS, TriggerCarouselDto } from './trigger-carousel.dto.js';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
/** Media links already seen to pass isURL: campaigns send the same card images over and over. */
const acceptedLinks = new Set<string>();
const MAX_ACCEPTED_LINKS = 10_000;

/**
 * The carousel trigger's hot path: true only when `body` certainly passes every TriggerCarouselDto rule
 * (the same checks, written out once instead of walked by reflection per request, ~10x cheaper). Any
 * doubt answers false, and the request goes through class-validator, which words the 400.
 * A body with the optional `config` has three keys and so always goes to class-validator (its postback
 * URL needs an address check anyway). trigger-carousel.fast-check.spec.ts holds it to the DTO.
 */
export function isCertainlyValidTrigger(body: unknown): body is TriggerCarouselDto {
  if (!hasOnlyKeys(body, ['userDetails', 'notification'], 2)) return false;
  const { userDetails, notification } = body as { userDetails: unknown; notification: unknown };
  if (!hasOnlyKeys(userDetails, ['number'], 1) || !isPhone((userDetails as { number: unknown }).number)) return false;
  if (!hasOnlyKeys(notification, ['templateId', 'type', 'sender', 'params'], 4)) return false;
  const n = notification as { templateId: unknown; type: unknown; sender: unknown; params: unknown };
  if (typeof n.templateId !== 'string' || n.templateId === '') return false;
  if (typeof n.type !== 'string' || !(SUPPORTED_CHANNELS as readonly string[]).includes(n.type)) return false;
  if (!isPhone(n.sender) || !isObjectWith(n.params, ['cards'], ['bodyParameters'])) return false;
  const { cards, bodyParameters } = n.params as { cards: unknown; bodyParameters?: unknown };
  if ('bodyParameters' in (n.params as object) && !isStringList(bodyParameters)) return false;
  if (!Array.isArray(cards) || cards.length < 1 || cards.length > 10) return false;
  return cards.every(isCertainlyValidCard);
}

function isCertainlyValidCard(card: unknown): boolean {
  // A card with fields the platform does not read goes to class-validator, which drops them.
  if (!isObjectWith(card, ['media'], ['bodyParameters', 'buttons'])) return false;
  const { media, bodyParameters, buttons } = card as { media: unknown; bodyParameters?: unknown; buttons?: unknown };
  if (!hasOnlyKeys(media, ['mediaLink'], 1)) return false;
  const link = (media as { mediaLink: unknown }).mediaLink;
  if (typeof link !== 'string' || link.length > 2048 || !isAcceptedLink(link)) return false;
  if ('bodyParameters' in (card as object) && !isStringList(bodyParameters)) return false;
  if (!('buttons' in (card as object))) return true;
  return Array.isArray(buttons) && buttons.length <= 10 && buttons.every(isCertainlyValidButton);
}

/** `{ payload }` (1-256 characters) or `{ urlSuffix }` (1-2000 characters). */
function isCertainlyValidButton(button: unknown): boolean {
  if (hasOnlyKeys(button, ['payload'], 1)) {
    const payload = (button as { payload: unknown }).payload;
    return typeof payload === 'string' && payload.length >= 1 && payload.length <= 256;
  }
  if (hasOnlyKeys(button, ['urlSuffix'], 1)) {
    const suffix = (button as { urlSuffix: unknown }).urlSuffix;
    return typeof suffix === 'string' && suffix.length >= 1 && suffix.length <= 2000;
  }
  return false;
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.length <= 20 && value.every((p) => typeof p === 'string');
}

function isAcceptedLink(link: string): boolean {
  if (acceptedLinks.has(link)) return true;
  if (!isURL(link, URL_OPTIONS)) return false;
  if (acceptedLinks.size >= MAX_ACCEPTED_LINKS) acceptedLinks.clear();
  acceptedLinks.add(link);
  return true;
}

/** A plain object with every key of `required`, and no keys but those and some of `optional`. */
function isObjectWith(value: unknown, required: readonly string[], optional: readonly string[]): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return required.every((k) => keys.includes(k)) && keys.every((k) => required.includes(k) || optional.includes(k));
}

/** A plain object with exactly `count` own keys, all of them in `allowed`. */
function hasOnlyKeys(value: unknown, allowed: readonly string[], count: number): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === count && keys.every((k) => allowed.includes(k));
}

function isPhone(value: unknown): boolean {
  return typeof value === 'string' && PHONE_NUMBER.test(value);
}
