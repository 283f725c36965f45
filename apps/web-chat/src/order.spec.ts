import { compareSeq, placeOf, seqOf } from './order.js';

/** Stand-ins for the log's children: only their data attributes matter here. */
const node = (dataset: Record<string, string>) => ({ dataset }) as unknown as Element;
const logOf = (...children: Element[]) => ({ children }) as unknown as Element;

describe("the chat page's order of messages", () => {
  it('compares places as integers, also past 2^53 and across lengths', () => {
    expect(compareSeq('9', '10')).toBeLessThan(0);
    expect(compareSeq('10', '9')).toBeGreaterThan(0);
    expect(compareSeq('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    expect(compareSeq('42', '42')).toBe(0);
  });

  it('reads only decimal places', () => {
    expect(seqOf('0012')).toBe('12');
    expect(seqOf('0')).toBe('0');
    for (const bad of [undefined, 12, '', '-1', '1e3', '12 ', '1'.repeat(21)]) expect(seqOf(bad)).toBeUndefined();
  });

  it('puts a message before the first one recorded after it, else before the unsent bubbles, else last', () => {
    const a = node({ seq: '5' });
    const refused = node({}); // a file the server refused: passed over
    const b = node({ seq: '9' });
    const unsent = node({ unsent: '' });
    const log = logOf(a, refused, b, unsent);
    expect(placeOf(log, '7')).toBe(b);
    expect(placeOf(log, '3')).toBe(a);
    expect(placeOf(log, '12')).toBe(unsent);
    expect(placeOf(log, undefined)).toBe(unsent);
    expect(placeOf(logOf(a, b), '12')).toBeNull();
    // A bubble being moved up is not its own landmark.
    const moving = node({ seq: '11' });
    expect(placeOf(logOf(a, b, moving, unsent), '11', moving)).toBe(unsent);
    expect(placeOf(logOf(a, b, node({ seq: '10' }), moving, unsent), '8', moving)).toBe(b);
  });
});
