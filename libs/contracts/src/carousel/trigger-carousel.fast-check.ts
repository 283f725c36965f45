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
  if (!isPhone(n.sender) || !hasOnlyKeys(n.params, ['cards'], 1)) return false;
  const cards = (n.params as { cards: unknown }).cards;
  if (!Array.isArray(cards) || cards.length < 1 || cards.length > 10) return false;
  return cards.every(isCertainlyValidCard);
}

function isCertainlyValidCard(card: unknown): boolean {
  const keys = card !== null && typeof card === 'object' && !Array.isArray(card) ? Object.keys(card) : null;
  if (!keys || !keys.every((k) => k === 'media' || k === 'bodyParameters') || !keys.includes('media')) return false;
  const { media, bodyParameters } = card as { media: unknown; bodyParameters?: unknown };
  if (!hasOnlyKeys(media, ['mediaLink'], 1)) return false;
  const link = (media as { mediaLink: unknown }).mediaLink;
  if (typeof link !== 'string' || link.length > 2048 || !isAcceptedLink(link)) return false;
  if (!('bodyParameters' in (card as object))) return true;
  return Array.isArray(bodyParameters) && bodyParameters.length <= 20 && bodyParameters.every((p) => typeof p === 'string');
}

function isAcceptedLink(link: string): boolean {
  if (acceptedLinks.has(link)) return true;
  if (!isURL(link, URL_OPTIONS)) return false;
  if (acceptedLinks.size >= MAX_ACCEPTED_LINKS) acceptedLinks.clear();
  acceptedLinks.add(link);
  return true;
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
