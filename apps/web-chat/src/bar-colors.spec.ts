import { textColorOn } from './bar-colors.js';

describe('textColorOn', () => {
  it.each([
    ['#1f3a5f', '#ffffff'],
    ['#1A73E8FF', '#ffffff'],
    ['#000000', '#ffffff'],
    ['#ffffff', '#1b1b1b'],
    ['#FFD54F', '#1b1b1b'],
    ['#1A73E810', '#1b1b1b'], // nearly transparent: the page's white shows through
  ])('on %s writes %s', (bar, text) => {
    expect(textColorOn(bar)).toBe(text);
  });
});
