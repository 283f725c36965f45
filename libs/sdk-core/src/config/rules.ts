export const AUTH_TOKEN_MAX_LENGTH = 40;
/**
 * Largest config `payload` and `sendEventToBot` data: UTF-8 bytes of their JSON text. The platform
 * refuses larger ones with 400; the SDK refuses them before sending anything.
 */
export const PAYLOAD_MAX_BYTES = 65_536;
export const AUTH_TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;
export const COLOR_PATTERN = /^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;
/** A DNS host name (labels of letters, digits, dashes) with an optional port. */
export const HOST_PATTERN = /^(?=[^:]{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/i;
/** http(s) origin with an optional path prefix; no query or fragment. */
export const API_BASE_URL_PATTERN = /^https?:\/\/[^/?#\s@]+(?:\/[^?#\s]*)?$/i;
export const REGIONS = ['r1', 'r2', 'r3', 'r4', 'r5'] as const;

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `https://r1.<host>` … `https://r5.<host>`, nothing after the host but one optional slash. */
export function regionUrlPattern(cloudHost: string): RegExp {
  return new RegExp(`^https://r[1-5]\\.${escapeRegExp(cloudHost)}/?$`, 'i');
}
