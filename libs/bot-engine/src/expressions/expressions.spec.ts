import { ExpressionError } from './expression-error.js';
import { evaluateExpression } from './evaluate-expression.js';
import { parseExpression } from './parse-expression.js';

const scope = {
  variables: {
    age: 42,
    name: '  Ana  ',
    profile: { userName: 'Ana', tags: ['vip', 'new'], nested: { deep: true }, 'with-dash': 'd' },
    list: [1, 2, 3],
    empty: '',
    nothing: null,
  },
  payload: '{"JourneySlug":"promo"}',
};
const run = (source: string) => evaluateExpression(parseExpression(source), scope);

function refusal(source: string): string {
  try {
    parseExpression(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return (error as Error).message;
  }
  throw new Error(`expected "${source}" to be refused`);
}

describe('expressions', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 % 4', 2],
    ['-variables.age', -42],
    ['"a" + "b"', 'ab'],
    ["'n=' + variables.age", 'n=42'],
    ['variables.age >= 18', true],
    ['variables.age < 18', false],
    ['"abc" < "abd"', true],
    ['variables.age == 42', true],
    ['variables.age == "42"', false],
    ['variables.age != "42"', true],
    ['variables.age === 42 && variables.profile.userName === "Ana"', true],
    ['!variables.profile.nested.deep', false],
    ['variables.profile.tags[0]', 'vip'],
    ['variables.profile["userName"]', 'Ana'],
    ['variables.profile["with-dash"]', 'd'],
    ['variables.list[variables.list[0]]', 2],
    ['variables.profile.missing', null],
    ['variables.profile.missing.deeper', null],
    ['variables.list[10]', null],
    ['variables.age > 40 ? "old" : "young"', 'old'],
    ['[1, "a", true]', [1, 'a', true]],
    ['payload', '{"JourneySlug":"promo"}'],
    ['null', null],
    ['variables.empty || "default"', 'default'],
    ['variables.age && "yes"', 'yes'],
    ['1 / 0', null],
    ['"a" - 1', null],
    ['"a" < 1', false],
  ])('%s → %j', (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it.each([
    ['len(variables.name)', 7],
    ['len(variables.list)', 3],
    ['len(variables.profile)', 4],
    ['len(variables.age)', 0],
    ['lower("AbC")', 'abc'],
    ['upper(variables.profile.userName)', 'ANA'],
    ['trim(variables.name)', 'Ana'],
    ['contains(variables.profile.tags, "vip")', true],
    ['contains("hello", "ell")', true],
    ['contains(variables.age, 4)', false],
    ['startsWith(payload, "{")', true],
    ['endsWith("file.png", ".png")', true],
    ['number(" 12.5 ")', 12.5],
    ['number("abc")', null],
    ['string(variables.list)', '[1,2,3]'],
    ['string(variables.nothing)', ''],
    ['isEmpty(variables.empty)', true],
    ['isEmpty(variables.nothing)', true],
    ['isEmpty("  ")', true],
    ['isEmpty(variables.list)', false],
    ['round(2.567, 2)', 2.57],
    ['round(2.5)', 3],
    ['round("x")', null],
  ])('%s → %j', (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it('short-circuits && and || (the right side is not evaluated)', () => {
    // A forbidden computed member would throw if evaluated.
    expect(run('false && variables.profile[lower("CONSTRUCTOR")]')).toBe(false);
    expect(run('true || variables.profile[lower("CONSTRUCTOR")]')).toBe(true);
    expect(() => run('true && variables.profile[lower("CONSTRUCTOR")]')).toThrow(ExpressionError);
  });

  describe('injection attempts are refused when parsed', () => {
    it.each([
      ['this', /"this" is not allowed/],
      ['this.constructor', /member name "constructor"|"this" is not allowed/],
      ['variables.constructor', /member name "constructor"/],
      ['variables.profile.constructor.constructor("return process")()', /only the functions of the language can be called/],
      ['variables.profile.constructor.constructor', /member name "constructor"/],
      ['variables.profile.__proto__', /member name "__proto__"/],
      ['variables.profile["__proto__"]', /member name "__proto__"/],
      ['variables.list["constructor"]', /member name "constructor"/],
      ['payload.prototype', /member name "prototype"/],
      ['process.exit(1)', /only the functions of the language can be called/],
      ['process', /unknown name "process"/],
      ['globalThis', /unknown name "globalThis"/],
      ['require("fs")', /unknown function "require"/],
      ['eval("1")', /unknown function "eval"/],
      ['Function("return 1")()', /only the functions of the language can be called/],
      ['Function("return 1")', /unknown function "Function"/],
      ['variables.name.toString()', /only the functions of the language can be called/],
      ['lower.call(1)', /member name|only the functions|is a function/],
      ['len(1)(2)', /only the functions of the language can be called/],
      ['new Date()', /one expression only/],
      ['variables.a = 1', /does not parse/],
      ['x => x', /does not parse/],
      ['`${1}`', /does not parse/],
      ['1; 2', /one expression only/],
      ['1, 2', /one expression only|does not parse/],
      ['~1', /operator ~ is not allowed/],
      ['+"1"', /operator \+ is not allowed/],
      ['1 << 2', /operator << is not allowed/],
      ['2 ** 3', /operator \*\* is not allowed/],
      ['variables.a ?? 1', /operator \?\? is not allowed/],
      ['variables', /name a variable/],
      ['variables[variables.k]', /name the variable/],
      ['len', /is a function/],
      ['len()', /takes 1 argument/],
      ['round(1, 2, 3)', /takes 1 to 2 arguments/],
      ['[1, , 2]', /empty slot/],
      ['', /empty/],
    ])('%s', (source, message) => {
      expect(refusal(source)).toMatch(message);
    });

    it('refuses expressions longer than 1000 characters', () => {
      expect(refusal(`1${' + 1'.repeat(250)}`)).toMatch(/longer than 1000/);
    });
  });

  describe('evaluation never reaches a prototype', () => {
    it('computed member names that lead to prototypes are refused when evaluated', () => {
      expect(() => run('variables.profile[lower("__PROTO__")]')).toThrow(/member name "__proto__"/);
      expect(() => run('variables.list["con" + "structor"]')).toThrow(/member name "constructor"/);
    });

    it('inherited members read as null', () => {
      expect(run('variables.profile["toString"]')).toBeNull();
      expect(run('variables.profile.hasOwnProperty')).toBeNull();
      expect(run('variables.list.length')).toBeNull();
      expect(run('variables.name.length')).toBeNull();
      expect(run('variables.list["map"]')).toBeNull();
    });

    it('own properties named like prototype members are data, never code', () => {
      const own = JSON.parse('{"__proto__": {"polluted": true}, "toString": "mine"}') as Record<string, unknown>;
      const expr = parseExpression('variables.o["toString"]');
      expect(evaluateExpression(expr, { variables: { o: own }, payload: null })).toBe('mine');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('an undeclared variable reads as null', () => {
      expect(evaluateExpression(parseExpression('variables.toString'), { variables: {}, payload: null })).toBeNull();
    });
  });
});
