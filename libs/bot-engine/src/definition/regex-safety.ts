/**
 * Why a question's pattern is refused, or null when it is accepted. Patterns run on the runtime's event loop
 * against user answers (≤ 4096 characters), so beyond compiling they must not backtrack catastrophically. A
 * regex engine cannot promise that; this refuses the shapes behind exponential backtracking: a quantified
 * group that itself contains a quantifier or an alternation (`(a+)+`, `(a|a)*`), and backreferences. It is
 * a heuristic: polynomial cases such as `\d*\d*\d*x` pass, bounded by the answer's 4096 characters.
 */
export function unsafePatternReason(pattern: string, flags = ''): string | null {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'uses a backreference, which can make matching take very long';
  // Per open group: does it contain a quantifier or an alternation?
  const groups: Array<{ risky: boolean }> = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') groups.push({ risky: false });
    else if (char === '|' && groups.length) groups[groups.length - 1].risky = true;
    else if (char === ')') {
      const group = groups.pop();
      const quantified = /^([*+?]|\{\d+,\d*\})/.exec(pattern.slice(i + 1));
      const repeats = quantified && quantified[1] !== '?';
      if (group?.risky && repeats) return 'repeats a group that itself repeats or alternates (like (a+)+ or (a|b)*), which can make matching take very long';
      if (group?.risky && groups.length) groups[groups.length - 1].risky = true;
      if (repeats && groups.length) groups[groups.length - 1].risky = true;
    } else if ((char === '*' || char === '+' || char === '{') && groups.length) groups[groups.length - 1].risky = true;
  }
  return null;
}
