import { describe, expect, it } from '@jest/globals';
import { consolePath } from './console-static.js';

describe('consolePath: which console file a URL under /console/ names', () => {
  it('answers index.html for a page path, so shared links such as /console/settings/api-keys open the console', () => {
    expect(consolePath('settings/api-keys')).toBe('index.html');
    expect(consolePath('bots/6f1c/messages/')).toBe('index.html');
  });

  it('keeps files and assets as named, so a missing one stays a 404', () => {
    expect(consolePath('assets/index-abc.js')).toBe('assets/index-abc.js');
    expect(consolePath('assets/chunk')).toBe('assets/chunk');
    expect(consolePath('nope.js')).toBe('nope.js');
    expect(consolePath('index.html')).toBe('index.html');
  });
});
