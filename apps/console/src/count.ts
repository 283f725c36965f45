/** "1 card", "3 cards": a number and the noun it counts, singular for one. `plural` for nouns not made with an s. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
