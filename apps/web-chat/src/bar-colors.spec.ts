import { BLACK_TEXT, DARK_TEXT, LIGHT_TEXT, MIN_CONTRAST, closeColorOn, contrastRatio, textColorOn } from './bar-colors.js';

describe('textColorOn', () => {
  it.each([
    ['#1f3a5f', LIGHT_TEXT],
    ['#1A73E8FF', LIGHT_TEXT],
    ['#000000', LIGHT_TEXT],
    ['#ffffff', DARK_TEXT],
    ['#FFD54F', DARK_TEXT],
    ['#1A73E810', DARK_TEXT], // nearly transparent: the page's white shows through
    ['#1F8A3F', BLACK_TEXT], // white 4.4:1 and #1b1b1b 3.9:1 both fail
  ])('on %s writes %s', (bar, text) => {
    expect(textColorOn(bar)).toBe(text);
  });

  it('reaches 4.5:1 on every colour of a 17-step RGB grid, opaque and translucent (9,826 colours)', () => {
    const steps = Array.from({ length: 17 }, (_, i) => Math.min(255, i * 16));
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    let checked = 0;
    let worst = 21;
    for (const r of steps)
      for (const g of steps)
        for (const b of steps)
          for (const alpha of ['', '80']) {
            const bar = `#${hex(r)}${hex(g)}${hex(b)}${alpha}`;
            const ratio = contrastRatio(bar, textColorOn(bar));
            worst = Math.min(worst, ratio);
            checked++;
          }
    expect(checked).toBe(17 ** 3 * 2);
    expect(worst).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('computes WCAG ratios: white on black 21:1, equal colours 1:1, #767676 on white 4.54:1', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1F8A3F', '#1F8A3F')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});

describe('closeColorOn', () => {
  it("keeps the developer's close colour when it is readable on the bar, else uses the title's", () => {
    expect(closeColorOn('#1f3a5f', '#ffffff')).toBe('#ffffff');
    expect(closeColorOn('#1F8A3F', '#ffffff')).toBe(BLACK_TEXT);
    expect(closeColorOn('#ffffff', '#ffff00')).toBe(DARK_TEXT);
    expect(closeColorOn('#ffffff', undefined)).toBe(DARK_TEXT);
  });
});
