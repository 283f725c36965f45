/** sRGB relative luminance (WCAG 2) of a channel value 0-255. */
function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export const DARK_TEXT = '#1b1b1b';
export const BLACK_TEXT = '#000000';
export const LIGHT_TEXT = '#ffffff';
/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** The [r, g, b] a `#RRGGBB` / `#RRGGBBAA` colour shows over the page's white (a translucent bar lets it through). */
function onWhite(color: string): [number, number, number] {
  const alpha = color.length === 9 ? parseInt(color.slice(7, 9), 16) / 255 : 1;
  return [1, 3, 5].map((i) => alpha * parseInt(color.slice(i, i + 2), 16) + (1 - alpha) * 255) as [number, number, number];
}

/** WCAG 2 relative luminance of a `#RRGGBB` / `#RRGGBBAA` colour seen over white. */
export function luminance(color: string): number {
  const [r, g, b] = onWhite(color);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio (1 to 21) of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The header text colour for a bar colour: white or the page's dark grey, whichever contrasts more, and
 * black when neither reaches 4.5:1. Mid-tones such as #1F8A3F give white 4.4:1 and #1b1b1b 3.9:1; black
 * then gives 4.8:1, and black or white always reaches 4.58:1 at least.
 */
export function textColorOn(color: string): string {
  const light = contrastRatio(color, LIGHT_TEXT);
  const dark = contrastRatio(color, DARK_TEXT);
  if (Math.max(light, dark) >= MIN_CONTRAST) return light >= dark ? LIGHT_TEXT : DARK_TEXT;
  return contrastRatio(color, BLACK_TEXT) >= light ? BLACK_TEXT : LIGHT_TEXT;
}

/** The developer's close-button colour when it is readable on the bar, else the title's colour. */
export function closeColorOn(bar: string, close: string | undefined): string {
  return close && contrastRatio(bar, close) >= MIN_CONTRAST ? close : textColorOn(bar);
}
