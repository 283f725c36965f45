import { jsonNestedDeeperThan } from './json-nesting.js';

describe('jsonNestedDeeperThan', () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('counts arrays and objects inside each other, on text and on UTF-8 bytes read as latin1 alike', () => {
    for (const read of [(t: string) => t, (t: string) => Buffer.from(t).toString('latin1')]) {
      expect(jsonNestedDeeperThan(read(nested(3)), 3)).toBe(false);
      expect(jsonNestedDeeperThan(read(nested(4)), 3)).toBe(true);
      expect(jsonNestedDeeperThan(read('{"a":{"b":[1,{"c":[]}]}}'), 5)).toBe(false);
      expect(jsonNestedDeeperThan(read('{"a":{"b":[1,{"c":[]}]}}'), 4)).toBe(true);
      // Siblings do not add up.
      expect(jsonNestedDeeperThan(read(`[${Array(50).fill('[[]]').join(',')}]`), 3)).toBe(false);
    }
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestedDeeperThan(`{"a":"${'['.repeat(500)}"}`, 1)).toBe(false);
    expect(jsonNestedDeeperThan(`{"a":"\\"${'{'.repeat(500)}\\\\"}`, 1)).toBe(false);
    expect(jsonNestedDeeperThan(Buffer.from(`["é€😀${'['.repeat(50)}"]`).toString('latin1'), 1)).toBe(false);
  });
});
