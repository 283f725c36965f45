/** sRGB relative luminance (WCAG 2) of a channel value 0-255. */
function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const DARK_TEXT = '#1b1b1b';
const LIGHT_TEXT = '#ffffff';

/**
 * The header text colour that reads best on a `#RRGGBB` / `#RRGGBBAA` bar (a translucent bar is seen
 * over the page's white), so that a light statusBarColor does not hide the title.
 */
export function textColorOn(color: string): string {
  const alpha = color.length === 9 ? parseInt(color.slice(7, 9), 16) / 255 : 1;
  const [r, g, b] = [1, 3, 5].map((i) => alpha * parseInt(color.slice(i, i + 2), 16) + (1 - alpha) * 255);
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const onWhite = 1.05 / (luminance + 0.05);
  const onDark = (luminance + 0.05) / 0.061; // 0.061: luminance of #1b1b1b plus 0.05
  return onDark > onWhite ? DARK_TEXT : LIGHT_TEXT;
}
