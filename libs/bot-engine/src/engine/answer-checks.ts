import type { AnswerCheck, BotButton } from '@platform/contracts';
import { LIMITS } from '../definition/definition-limits.js';

export type AnswerResult = { ok: true; value: string | number } | { ok: false; reason: string };

const EMAIL = /^[^\s@]{1,64}@[^\s@.]{1,63}(\.[^\s@.]{1,63})+$/;
const PHONE = /^\+?[0-9][0-9 -]*$/;
const compiled = new Map<string, RegExp>();

/** More choices than fit as quick replies are listed, numbered, in the question's text (see questionPrompt). */
export function choicesAreListed(choices: BotButton[]): boolean {
  return choices.length > LIMITS.quickReplies;
}

/**
 * Checks a user's answer. `text` is what they typed (or the tapped button's title), `payload` a tapped button's
 * payload. Values are stored trimmed; numbers as numbers; phones as `+` and digits; choices as their payload.
 */
export function checkAnswer(check: AnswerCheck, text: string | undefined, payload: string | undefined): AnswerResult {
  const raw = text ?? payload ?? '';
  if (raw.length > LIMITS.answer) return { ok: false, reason: `the answer is longer than ${LIMITS.answer} characters` };
  const answer = raw.trim();
  switch (check.type) {
    case 'text': {
      const min = check.minLength ?? 1;
      const max = check.maxLength ?? LIMITS.answer;
      if (answer.length < min) return { ok: false, reason: min === 1 ? 'the answer is empty' : `the answer is shorter than ${min} characters` };
      if (answer.length > max) return { ok: false, reason: `the answer is longer than ${max} characters` };
      return { ok: true, value: answer };
    }
    case 'number': {
      const value = answer === '' ? NaN : Number(answer);
      if (!Number.isFinite(value)) return { ok: false, reason: 'the answer is not a number' };
      if (check.min !== undefined && value < check.min) return { ok: false, reason: `the answer is below ${check.min}` };
      if (check.max !== undefined && value > check.max) return { ok: false, reason: `the answer is above ${check.max}` };
      return { ok: true, value };
    }
    case 'email':
      return answer.length <= 254 && EMAIL.test(answer) ? { ok: true, value: answer } : { ok: false, reason: 'the answer is not an email address' };
    case 'phone': {
      const digits = answer.replace(/\D/g, '');
      if (!PHONE.test(answer) || digits.length < 7 || digits.length > 15) return { ok: false, reason: 'the answer is not a phone number' };
      return { ok: true, value: `${answer.startsWith('+') ? '+' : ''}${digits}` };
    }
    case 'choice': {
      const valueOf = (choice: BotButton) => choice.payload ?? choice.title;
      const tapped = payload !== undefined ? check.choices.find((choice) => valueOf(choice) === payload) : undefined;
      if (tapped) return { ok: true, value: valueOf(tapped) };
      const lower = answer.toLowerCase();
      const typed = check.choices.find((choice) => choice.title.toLowerCase() === lower || valueOf(choice).toLowerCase() === lower);
      if (typed) return { ok: true, value: valueOf(typed) };
      if (choicesAreListed(check.choices) && /^\d{1,2}$/.test(answer)) {
        const numbered = check.choices[Number(answer) - 1];
        if (numbered) return { ok: true, value: valueOf(numbered) };
      }
      return { ok: false, reason: 'the answer is not one of the choices' };
    }
    case 'pattern':
      return regex(check.pattern, check.flags ?? '').test(answer) ? { ok: true, value: answer } : { ok: false, reason: 'the answer does not match the pattern' };
  }
}

function regex(pattern: string, flags: string): RegExp {
  const key = `${flags}/${pattern}`;
  let found = compiled.get(key);
  if (!found) {
    // Flags g and y are refused by the schema: a regex without them keeps no state between tests.
    found = new RegExp(pattern, flags);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, found);
  }
  return found;
}
